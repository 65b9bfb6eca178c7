from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.nats_destination_type import NatsDestinationType
from ..types import UNSET, Unset

T = TypeVar("T", bound="NatsDestination")


@_attrs_define
class NatsDestination:
    """A subject on the NATS server at `url`, captured by a JetStream stream; see `SubscriptionDestination`. Credentials
    are `username` and `password` together, or `token`, or none for a server that asks for none (422 naming the field
    for any other mix).

        Example:
            {'type': 'nats', 'subject': 'webhooks.orders', 'username': 'hooks', 'password': 'correct-horse-battery-staple'}

        Attributes:
            type_ (NatsDestinationType): NATS JetStream.
            subject (str): The subject every message is published to (printable ASCII tokens separated by `.`, no wildcard
                `*` or `>`); a JetStream stream on the server must capture it (the service never creates streams).
            username (str | Unset): The NATS user, with `password`; sealed at rest, never returned.
            password (str | Unset): The NATS user's password, with `username`; sealed at rest, never returned.
            token (str | Unset): The server's authentication token, instead of `username` and `password`; sealed at rest,
                never returned.
    """

    type_: NatsDestinationType
    subject: str
    username: str | Unset = UNSET
    password: str | Unset = UNSET
    token: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        subject = self.subject

        username = self.username

        password = self.password

        token = self.token

        field_dict: dict[str, Any] = {}

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
        type_ = NatsDestinationType(d.pop("type"))

        subject = d.pop("subject")

        username = d.pop("username", UNSET)

        password = d.pop("password", UNSET)

        token = d.pop("token", UNSET)

        nats_destination = cls(
            type_=type_,
            subject=subject,
            username=username,
            password=password,
            token=token,
        )

        return nats_destination
