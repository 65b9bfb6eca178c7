from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.http_destination_type import HttpDestinationType

T = TypeVar("T", bound="HttpDestination")


@_attrs_define
class HttpDestination:
    """Signed POSTs to `url` (the default).

    Example:
        {'type': 'http'}

    Attributes:
        type_ (HttpDestinationType): HTTP POST.
    """

    type_: HttpDestinationType

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = HttpDestinationType(d.pop("type"))

        http_destination = cls(
            type_=type_,
        )

        return http_destination
