from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.bearer_auth_type import BearerAuthType

T = TypeVar("T", bound="BearerAuth")


@_attrs_define
class BearerAuth:
    """A static bearer token, sent as `Authorization: Bearer <token>`.

    Example:
        {'type': 'bearer', 'token': 'rcv_live_0123456789abcdef'}

    Attributes:
        type_ (BearerAuthType): Bearer token.
        token (str): The token (printable ASCII, no spaces); sealed at rest, never returned.
    """

    type_: BearerAuthType
    token: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        token = self.token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = BearerAuthType(d.pop("type"))

        token = d.pop("token")

        bearer_auth = cls(
            type_=type_,
            token=token,
        )

        return bearer_auth
