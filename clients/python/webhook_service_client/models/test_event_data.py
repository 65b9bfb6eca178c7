from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TestEventData")


@_attrs_define
class TestEventData:
    """Payload of `webhook.test`. Receivers must ignore fields they do not know.

    Attributes:
        message (str): Human-readable test message.
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        url (str): Absolute URL of the event's resource in this API; its origin is the server's `PUBLIC_URL`. A `GET`
            with an API key of the subscription's owner (scope `resources:read`; `webhooks:read` for a subscription) returns
            the resource as it is now, in full.
    """

    message: str
    subscription_id: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        subscription_id = self.subscription_id

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message": message,
                "subscription_id": subscription_id,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message = d.pop("message")

        subscription_id = d.pop("subscription_id")

        url = d.pop("url")

        test_event_data = cls(
            message=message,
            subscription_id=subscription_id,
            url=url,
        )

        test_event_data.additional_properties = d
        return test_event_data

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
