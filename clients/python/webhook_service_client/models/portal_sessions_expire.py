from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PortalSessionsExpire")


@_attrs_define
class PortalSessionsExpire:
    """Whose portal sessions to end.

    Attributes:
        owner_id (str | Unset): The owner whose sessions end; the calling key's owner when omitted. Only an `admin` key
            may name another owner.
    """

    owner_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        owner_id = self.owner_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if owner_id is not UNSET:
            field_dict["owner_id"] = owner_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        owner_id = d.pop("owner_id", UNSET)

        portal_sessions_expire = cls(
            owner_id=owner_id,
        )

        return portal_sessions_expire
