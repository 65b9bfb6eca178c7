from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PortalSessionsExpired")


@_attrs_define
class PortalSessionsExpired:
    """Which sessions were ended.

    Attributes:
        owner_id (str): The owner whose sessions ended.
        expired_before (datetime.datetime): Sessions of this owner opened before this time no longer work.
    """

    owner_id: str
    expired_before: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        owner_id = self.owner_id

        expired_before = self.expired_before.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "owner_id": owner_id,
                "expired_before": expired_before,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        owner_id = d.pop("owner_id")

        expired_before = datetime.datetime.fromisoformat(d.pop("expired_before"))

        portal_sessions_expired = cls(
            owner_id=owner_id,
            expired_before=expired_before,
        )

        portal_sessions_expired.additional_properties = d
        return portal_sessions_expired

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
