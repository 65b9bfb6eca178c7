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
    from ..models.deprecated_version_notification_data import (
        DeprecatedVersionNotificationData,
    )


T = TypeVar("T", bound="DeprecatedVersionNotification")


@_attrs_define
class DeprecatedVersionNotification:
    """Body of the `version.deprecated_in_use` operational webhook.

    Attributes:
        type_ (Literal['version.deprecated_in_use']): What it tells; always `version.deprecated_in_use`.
        timestamp (datetime.datetime): When the service counted the subscriptions.
        data (DeprecatedVersionNotificationData): The deprecated version and how many active subscriptions still use it.
    """

    type_: Literal["version.deprecated_in_use"]
    timestamp: datetime.datetime
    data: DeprecatedVersionNotificationData
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
        from ..models.deprecated_version_notification_data import (
            DeprecatedVersionNotificationData,
        )

        d = dict(src_dict)
        type_ = cast(Literal["version.deprecated_in_use"], d.pop("type"))
        if type_ != "version.deprecated_in_use":
            raise ValueError(
                f"type must match const 'version.deprecated_in_use', got '{type_}'"
            )

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        data = DeprecatedVersionNotificationData.from_dict(d.pop("data"))

        deprecated_version_notification = cls(
            type_=type_,
            timestamp=timestamp,
            data=data,
        )

        deprecated_version_notification.additional_properties = d
        return deprecated_version_notification

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
