from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeprecatedVersionNotificationData")


@_attrs_define
class DeprecatedVersionNotificationData:
    """The deprecated version and how many active subscriptions still use it.

    Attributes:
        version (int): The deprecated envelope version.
        deprecated_at (datetime.datetime): When it was deprecated.
        sunset (datetime.datetime): When it is retired.
        active_subscriptions (int): Active subscriptions on it, every owner's; `GET /api/webhooks/v1/deprecated-
            subscriptions` lists them.
    """

    version: int
    deprecated_at: datetime.datetime
    sunset: datetime.datetime
    active_subscriptions: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        version = self.version

        deprecated_at = self.deprecated_at.isoformat()

        sunset = self.sunset.isoformat()

        active_subscriptions = self.active_subscriptions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "version": version,
                "deprecated_at": deprecated_at,
                "sunset": sunset,
                "active_subscriptions": active_subscriptions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        version = d.pop("version")

        deprecated_at = datetime.datetime.fromisoformat(d.pop("deprecated_at"))

        sunset = datetime.datetime.fromisoformat(d.pop("sunset"))

        active_subscriptions = d.pop("active_subscriptions")

        deprecated_version_notification_data = cls(
            version=version,
            deprecated_at=deprecated_at,
            sunset=sunset,
            active_subscriptions=active_subscriptions,
        )

        deprecated_version_notification_data.additional_properties = d
        return deprecated_version_notification_data

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
