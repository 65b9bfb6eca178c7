from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.redis_destination_view_password import RedisDestinationViewPassword
from ..models.redis_destination_view_type import RedisDestinationViewType
from ..models.redis_destination_view_username import RedisDestinationViewUsername
from ..types import UNSET, Unset

T = TypeVar("T", bound="RedisDestinationView")


@_attrs_define
class RedisDestinationView:
    """A Redis destination as shown on read; each credential set is masked, the others absent.

    Example:
        {'type': 'redis', 'stream': 'webhooks:orders', 'maxlen': 100000, 'username': '********', 'password': '********'}

    Attributes:
        type_ (RedisDestinationViewType): The kind of destination.
        stream (str): The stream entries are added to.
        maxlen (int | Unset): About how many entries the stream is trimmed to.
        username (RedisDestinationViewUsername | Unset): Set, and masked.
        password (RedisDestinationViewPassword | Unset): Set, and masked.
    """

    type_: RedisDestinationViewType
    stream: str
    maxlen: int | Unset = UNSET
    username: RedisDestinationViewUsername | Unset = UNSET
    password: RedisDestinationViewPassword | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        stream = self.stream

        maxlen = self.maxlen

        username: str | Unset = UNSET
        if not isinstance(self.username, Unset):
            username = self.username.value

        password: str | Unset = UNSET
        if not isinstance(self.password, Unset):
            password = self.password.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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
        type_ = RedisDestinationViewType(d.pop("type"))

        stream = d.pop("stream")

        maxlen = d.pop("maxlen", UNSET)

        _username = d.pop("username", UNSET)
        username: RedisDestinationViewUsername | Unset
        if isinstance(_username, Unset):
            username = UNSET
        else:
            username = RedisDestinationViewUsername(_username)

        _password = d.pop("password", UNSET)
        password: RedisDestinationViewPassword | Unset
        if isinstance(_password, Unset):
            password = UNSET
        else:
            password = RedisDestinationViewPassword(_password)

        redis_destination_view = cls(
            type_=type_,
            stream=stream,
            maxlen=maxlen,
            username=username,
            password=password,
        )

        redis_destination_view.additional_properties = d
        return redis_destination_view

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
