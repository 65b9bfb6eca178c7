from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.redis_destination_type import RedisDestinationType
from ..types import UNSET, Unset

T = TypeVar("T", bound="RedisDestination")


@_attrs_define
class RedisDestination:
    """A stream on the Redis server at `url`; see `SubscriptionDestination`. Credentials are `password` (the default user,
    or with `username` an ACL user), or none for a server that asks for none (422 naming `password` for a `username`
    without one).

        Example:
            {'type': 'redis', 'stream': 'webhooks:orders', 'maxlen': 100000, 'username': 'hooks', 'password': 'correct-
                horse-battery-staple'}

        Attributes:
            type_ (RedisDestinationType): Redis Streams.
            stream (str): The key of the stream every entry is added to (printable ASCII, no spaces); created by the first
                `XADD` when absent.
            maxlen (int | Unset): Trim the stream to about this many entries on each add (`XADD … MAXLEN ~`); absent, it is
                never trimmed.
            username (str | Unset): The ACL user, with `password`; sealed at rest, never returned.
            password (str | Unset): The password (of `username`, or of the default user); sealed at rest, never returned.
    """

    type_: RedisDestinationType
    stream: str
    maxlen: int | Unset = UNSET
    username: str | Unset = UNSET
    password: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        stream = self.stream

        maxlen = self.maxlen

        username = self.username

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "stream": stream,
            }
        )
        if maxlen is not UNSET:
            field_dict["maxlen"] = maxlen
        if username is not UNSET:
            field_dict["username"] = username
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = RedisDestinationType(d.pop("type"))

        stream = d.pop("stream")

        maxlen = d.pop("maxlen", UNSET)

        username = d.pop("username", UNSET)

        password = d.pop("password", UNSET)

        redis_destination = cls(
            type_=type_,
            stream=stream,
            maxlen=maxlen,
            username=username,
            password=password,
        )

        return redis_destination
