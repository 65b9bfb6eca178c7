from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookMeta")


@_attrs_define
class WebhookMeta:
    """Where webhook deliveries come from, for receivers that allow-list source addresses.

    Attributes:
        delivery_source_addresses (list[str]): Every address deliveries leave from, as CIDR ranges (`/32` for one IPv4
            address, `/128` for one IPv6 address). Empty when `delivery_source_addresses_fixed` is `false`.
        delivery_source_addresses_fixed (bool): `true` when deliveries come only from `delivery_source_addresses`;
            `false` when the service fixes no source address, so deliveries may come from any address and an allow-list
            would refuse them.
    """

    delivery_source_addresses: list[str]
    delivery_source_addresses_fixed: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivery_source_addresses = self.delivery_source_addresses

        delivery_source_addresses_fixed = self.delivery_source_addresses_fixed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "delivery_source_addresses": delivery_source_addresses,
                "delivery_source_addresses_fixed": delivery_source_addresses_fixed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        delivery_source_addresses = cast(list[str], d.pop("delivery_source_addresses"))

        delivery_source_addresses_fixed = d.pop("delivery_source_addresses_fixed")

        webhook_meta = cls(
            delivery_source_addresses=delivery_source_addresses,
            delivery_source_addresses_fixed=delivery_source_addresses_fixed,
        )

        webhook_meta.additional_properties = d
        return webhook_meta

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
