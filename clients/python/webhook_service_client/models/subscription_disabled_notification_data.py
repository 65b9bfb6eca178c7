from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SubscriptionDisabledNotificationData")


@_attrs_define
class SubscriptionDisabledNotificationData:
    """The subscription and why it was disabled.

    Attributes:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        owner_id (str): Owner of the API key that created it.
        url (str): Absolute http or https URL, with a host, that the deliveries are POSTed to (HTTPS recommended).
            Unless the operator allows private callbacks, its port must be 80, 443 or from 1024 to 65535, and not one of the
            well-known service ports 1080, 2375, 2376, 2379, 2380, 3306, 5432, 5672, 6379, 6443, 7233, 8500, 9042, 9092,
            9200, 9300, 10250, 11211 and 27017 (refused naming the field, and blocked at connect time).
        reason (str): Why it was disabled (as its `disabled_reason`).
        failing_since (datetime.datetime | Unset): Since when every delivery to it failed, when that is why.
    """

    subscription_id: str
    owner_id: str
    url: str
    reason: str
    failing_since: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subscription_id = self.subscription_id

        owner_id = self.owner_id

        url = self.url

        reason = self.reason

        failing_since: str | Unset = UNSET
        if not isinstance(self.failing_since, Unset):
            failing_since = self.failing_since.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subscription_id": subscription_id,
                "owner_id": owner_id,
                "url": url,
                "reason": reason,
            }
        )
        if failing_since is not UNSET:
            field_dict["failing_since"] = failing_since

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subscription_id = d.pop("subscription_id")

        owner_id = d.pop("owner_id")

        url = d.pop("url")

        reason = d.pop("reason")

        _failing_since = d.pop("failing_since", UNSET)
        failing_since: datetime.datetime | Unset
        if isinstance(_failing_since, Unset):
            failing_since = UNSET
        else:
            failing_since = datetime.datetime.fromisoformat(_failing_since)

        subscription_disabled_notification_data = cls(
            subscription_id=subscription_id,
            owner_id=owner_id,
            url=url,
            reason=reason,
            failing_since=failing_since,
        )

        subscription_disabled_notification_data.additional_properties = d
        return subscription_disabled_notification_data

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
