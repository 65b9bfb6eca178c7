from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.basic_auth_type import BasicAuthType

T = TypeVar("T", bound="BasicAuth")


@_attrs_define
class BasicAuth:
    """HTTP Basic credentials (RFC 7617).

    Example:
        {'type': 'basic', 'username': 'webhooks', 'password': 'correct-horse-battery-staple'}

    Attributes:
        type_ (BasicAuthType): HTTP Basic.
        username (str): The user name (no colon, no control characters); sealed at rest, never returned.
        password (str): The password (no control characters); sealed at rest, never returned.
    """

    type_: BasicAuthType
    username: str
    password: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        username = self.username

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "username": username,
                "password": password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = BasicAuthType(d.pop("type"))

        username = d.pop("username")

        password = d.pop("password")

        basic_auth = cls(
            type_=type_,
            username=username,
            password=password,
        )

        return basic_auth
