from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PortalSessionCreated")


@_attrs_define
class PortalSessionCreated:
    """A portal session and its link.

    Attributes:
        id (str): Session identifier, for logs and audits (the token is never logged).
        owner_id (str): The owner whose webhooks the session manages.
        url (str): The portal link, `<base>/portal#token=<token>`; the base is the server's `PUBLIC_URL`, or the address
            this request was made to.
        token (str): The session token alone (the `portalSession` bearer credential), for a portal you host yourself.
        expires_at (datetime.datetime): When the link stops working.
        admin (bool): True for an administrator session (alerts and Temporal UI links).
    """

    id: str
    owner_id: str
    url: str
    token: str
    expires_at: datetime.datetime
    admin: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        owner_id = self.owner_id

        url = self.url

        token = self.token

        expires_at = self.expires_at.isoformat()

        admin = self.admin

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "owner_id": owner_id,
                "url": url,
                "token": token,
                "expires_at": expires_at,
                "admin": admin,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        owner_id = d.pop("owner_id")

        url = d.pop("url")

        token = d.pop("token")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        admin = d.pop("admin")

        portal_session_created = cls(
            id=id,
            owner_id=owner_id,
            url=url,
            token=token,
            expires_at=expires_at,
            admin=admin,
        )

        portal_session_created.additional_properties = d
        return portal_session_created

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
