from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PortalSessionCreate")


@_attrs_define
class PortalSessionCreate:
    """Whom the portal session is for and how long it lasts.

    Attributes:
        owner_id (str | Unset): The owner whose webhooks the session manages; the calling key's owner when omitted. Only
            an `admin` key may name another owner.
        expires_in (int | Unset): Lifetime of the session, in seconds (1 hour by default, at most 24 hours). Default:
            3600.
    """

    owner_id: str | Unset = UNSET
    expires_in: int | Unset = 3600

    def to_dict(self) -> dict[str, Any]:
        owner_id = self.owner_id

        expires_in = self.expires_in

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if owner_id is not UNSET:
            field_dict["owner_id"] = owner_id
        if expires_in is not UNSET:
            field_dict["expires_in"] = expires_in

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        owner_id = d.pop("owner_id", UNSET)

        expires_in = d.pop("expires_in", UNSET)

        portal_session_create = cls(
            owner_id=owner_id,
            expires_in=expires_in,
        )

        return portal_session_create
