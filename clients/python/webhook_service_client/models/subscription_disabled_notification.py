from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.subscription_disabled_notification_data import (
        SubscriptionDisabledNotificationData,
    )


T = TypeVar("T", bound="SubscriptionDisabledNotification")


@_attrs_define
class SubscriptionDisabledNotification:
    """Body of the `subscription.disabled` operational webhook.

    Attributes:
        type_ (Literal['subscription.disabled']): What happened; always `subscription.disabled`.
        timestamp (datetime.datetime): When the subscription was disabled.
        data (SubscriptionDisabledNotificationData): The subscription and why it was disabled.
    """

    type_: Literal["subscription.disabled"]
    timestamp: datetime.datetime
    data: SubscriptionDisabledNotificationData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        timestamp = self.timestamp.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "timestamp": timestamp,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subscription_disabled_notification_data import (
            SubscriptionDisabledNotificationData,
        )

        d = dict(src_dict)
        type_ = cast(Literal["subscription.disabled"], d.pop("type"))
        if type_ != "subscription.disabled":
            raise ValueError(
                f"type must match const 'subscription.disabled', got '{type_}'"
            )

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        data = SubscriptionDisabledNotificationData.from_dict(d.pop("data"))

        subscription_disabled_notification = cls(
            type_=type_,
            timestamp=timestamp,
            data=data,
        )

        subscription_disabled_notification.additional_properties = d
        return subscription_disabled_notification

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
