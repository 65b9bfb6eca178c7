from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.event_type import EventType
from ..types import UNSET, Unset

T = TypeVar("T", bound="TestEventRequest")


@_attrs_define
class TestEventRequest:
    """What test event to send; an empty body (or none) sends `webhook.test`.

    Example:
        {'type': 'order.created'}

    Attributes:
        type_ (EventType | Unset): Event type name, of the form `<resource>.<action>`.
    """

    type_: EventType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _type_ = d.pop("type", UNSET)
        type_: EventType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = EventType(_type_)

        test_event_request = cls(
            type_=type_,
        )

        return test_event_request
