from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RedeliveryRequest")


@_attrs_define
class RedeliveryRequest:
    """Which subscription to redeliver to; all targeted subscriptions when omitted.

    Attributes:
        subscription_id (str | Unset): Subscription identifier, `sub_` plus 16-32 alphanumerics.
    """

    subscription_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        subscription_id = self.subscription_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if subscription_id is not UNSET:
            field_dict["subscription_id"] = subscription_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subscription_id = d.pop("subscription_id", UNSET)

        redelivery_request = cls(
            subscription_id=subscription_id,
        )

        return redelivery_request
