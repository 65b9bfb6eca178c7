from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SubscriptionHealth")


@_attrs_define
class SubscriptionHealth:
    """One subscription's health at a glance.

    Attributes:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        since (datetime.datetime): Start of the recent window the counts cover (6 hours ago).
        attempts (int): Attempts made since `since` to events emitted since then.
        delivered (int): How many of them delivered.
        failing_since (datetime.datetime | Unset): Since when every delivery attempt to it has failed; absent once one
            succeeds.
        success_rate (float | Unset): delivered / attempts; absent when there were none.
    """

    subscription_id: str
    since: datetime.datetime
    attempts: int
    delivered: int
    failing_since: datetime.datetime | Unset = UNSET
    success_rate: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subscription_id = self.subscription_id

        since = self.since.isoformat()

        attempts = self.attempts

        delivered = self.delivered

        failing_since: str | Unset = UNSET
        if not isinstance(self.failing_since, Unset):
            failing_since = self.failing_since.isoformat()

        success_rate = self.success_rate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subscription_id": subscription_id,
                "since": since,
                "attempts": attempts,
                "delivered": delivered,
            }
        )
        if failing_since is not UNSET:
            field_dict["failing_since"] = failing_since
        if success_rate is not UNSET:
            field_dict["success_rate"] = success_rate

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subscription_id = d.pop("subscription_id")

        since = datetime.datetime.fromisoformat(d.pop("since"))

        attempts = d.pop("attempts")

        delivered = d.pop("delivered")

        _failing_since = d.pop("failing_since", UNSET)
        failing_since: datetime.datetime | Unset
        if isinstance(_failing_since, Unset):
            failing_since = UNSET
        else:
            failing_since = datetime.datetime.fromisoformat(_failing_since)

        success_rate = d.pop("success_rate", UNSET)

        subscription_health = cls(
            subscription_id=subscription_id,
            since=since,
            attempts=attempts,
            delivered=delivered,
            failing_since=failing_since,
            success_rate=success_rate,
        )

        subscription_health.additional_properties = d
        return subscription_health

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
