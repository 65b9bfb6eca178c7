from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.portal_session_info_grants_item import PortalSessionInfoGrantsItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="PortalSessionInfo")


@_attrs_define
class PortalSessionInfo:
    """The calling portal session.

    Attributes:
        id (str): Session identifier.
        owner_id (str): The owner whose webhooks the session manages.
        expires_at (datetime.datetime): When the session ends.
        admin (bool): True for an administrator session.
        grants (list[PortalSessionInfoGrantsItem]): What the session may do, as `portalSession` scopes (`webhooks:read`,
            `webhooks:write`, `alerts:read`) plus `resources:read` when it may subscribe to `order.*` events.
        temporal_ui_url (str | Unset): The Temporal UI's address (administrator sessions, when the server knows it), to
            link to delivery workflows.
        temporal_namespace (str | Unset): The Temporal namespace the delivery workflows run in (administrator sessions).
    """

    id: str
    owner_id: str
    expires_at: datetime.datetime
    admin: bool
    grants: list[PortalSessionInfoGrantsItem]
    temporal_ui_url: str | Unset = UNSET
    temporal_namespace: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        owner_id = self.owner_id

        expires_at = self.expires_at.isoformat()

        admin = self.admin

        grants = []
        for grants_item_data in self.grants:
            grants_item = grants_item_data.value
            grants.append(grants_item)

        temporal_ui_url = self.temporal_ui_url

        temporal_namespace = self.temporal_namespace

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "owner_id": owner_id,
                "expires_at": expires_at,
                "admin": admin,
                "grants": grants,
            }
        )
        if temporal_ui_url is not UNSET:
            field_dict["temporal_ui_url"] = temporal_ui_url
        if temporal_namespace is not UNSET:
            field_dict["temporal_namespace"] = temporal_namespace

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        owner_id = d.pop("owner_id")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        admin = d.pop("admin")

        grants = []
        _grants = d.pop("grants")
        for grants_item_data in _grants:
            grants_item = PortalSessionInfoGrantsItem(grants_item_data)

            grants.append(grants_item)

        temporal_ui_url = d.pop("temporal_ui_url", UNSET)

        temporal_namespace = d.pop("temporal_namespace", UNSET)

        portal_session_info = cls(
            id=id,
            owner_id=owner_id,
            expires_at=expires_at,
            admin=admin,
            grants=grants,
            temporal_ui_url=temporal_ui_url,
            temporal_namespace=temporal_namespace,
        )

        portal_session_info.additional_properties = d
        return portal_session_info

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
