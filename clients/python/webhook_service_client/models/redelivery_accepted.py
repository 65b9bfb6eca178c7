from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RedeliveryAccepted")


@_attrs_define
class RedeliveryAccepted:
    """A redelivery scheduled.

    Attributes:
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        subscription_ids (list[str]): Subscriptions the event will be redelivered to.
    """

    event_id: str
    subscription_ids: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        subscription_ids = self.subscription_ids

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "subscription_ids": subscription_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        subscription_ids = cast(list[str], d.pop("subscription_ids"))

        redelivery_accepted = cls(
            event_id=event_id,
            subscription_ids=subscription_ids,
        )

        redelivery_accepted.additional_properties = d
        return redelivery_accepted

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
