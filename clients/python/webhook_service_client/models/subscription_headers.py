from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SubscriptionHeaders")


@_attrs_define
class SubscriptionHeaders:
    """Custom request headers for every delivery, name → value (at most 20; names are HTTP tokens of at most
    64 characters, values printable ASCII of at most 1024). Names that would break or forge a delivery are
    refused with a 422 naming the field: `host`, every `content-*` (`content-length`, `content-type`,
    `content-encoding`, ...), `expect`, `x-signature*`, `webhook-*` and hop-by-hop headers (`connection`,
    `keep-alive`, `proxy-*`, `te`, `trailer`, `transfer-encoding`, `upgrade`, `http2-settings`), in any case. Values may
    hold credentials: they are sealed at rest
    like signing secrets and never returned. An `sqs` subscription takes at most 4, named as SQS message attributes may
    be (see `SubscriptionDestination`).

        Example:
            {'X-Tenant': 'acme', 'X-Api-Key': 'k_live_0123456789'}

    """

    additional_properties: dict[str, str] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subscription_headers = cls()

        subscription_headers.additional_properties = d
        return subscription_headers

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> str:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: str) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
