from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.nats_destination_view_password import NatsDestinationViewPassword
from ..models.nats_destination_view_token import NatsDestinationViewToken
from ..models.nats_destination_view_type import NatsDestinationViewType
from ..models.nats_destination_view_username import NatsDestinationViewUsername
from ..types import UNSET, Unset

T = TypeVar("T", bound="NatsDestinationView")


@_attrs_define
class NatsDestinationView:
    """A NATS destination as shown on read; each credential set is masked, the others absent.

    Example:
        {'type': 'nats', 'subject': 'webhooks.orders', 'username': '********', 'password': '********'}

    Attributes:
        type_ (NatsDestinationViewType): The kind of destination.
        subject (str): The subject published to.
        username (NatsDestinationViewUsername | Unset): Set, and masked.
        password (NatsDestinationViewPassword | Unset): Set, and masked.
        token (NatsDestinationViewToken | Unset): Set, and masked.
    """

    type_: NatsDestinationViewType
    subject: str
    username: NatsDestinationViewUsername | Unset = UNSET
    password: NatsDestinationViewPassword | Unset = UNSET
    token: NatsDestinationViewToken | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        subject = self.subject

        username: str | Unset = UNSET
        if not isinstance(self.username, Unset):
            username = self.username.value

        password: str | Unset = UNSET
        if not isinstance(self.password, Unset):
            password = self.password.value

        token: str | Unset = UNSET
        if not isinstance(self.token, Unset):
            token = self.token.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "subject": subject,
            }
        )
        if username is not UNSET:
            field_dict["username"] = username
        if password is not UNSET:
            field_dict["password"] = password
        if token is not UNSET:
            field_dict["token"] = token

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = NatsDestinationViewType(d.pop("type"))

        subject = d.pop("subject")

        _username = d.pop("username", UNSET)
        username: NatsDestinationViewUsername | Unset
        if isinstance(_username, Unset):
            username = UNSET
        else:
            username = NatsDestinationViewUsername(_username)

        _password = d.pop("password", UNSET)
        password: NatsDestinationViewPassword | Unset
        if isinstance(_password, Unset):
            password = UNSET
        else:
            password = NatsDestinationViewPassword(_password)

        _token = d.pop("token", UNSET)
        token: NatsDestinationViewToken | Unset
        if isinstance(_token, Unset):
            token = UNSET
        else:
            token = NatsDestinationViewToken(_token)

        nats_destination_view = cls(
            type_=type_,
            subject=subject,
            username=username,
            password=password,
            token=token,
        )

        nats_destination_view.additional_properties = d
        return nats_destination_view

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
