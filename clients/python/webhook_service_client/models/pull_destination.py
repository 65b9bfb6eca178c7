from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.pull_destination_type import PullDestinationType

T = TypeVar("T", bound="PullDestination")


@_attrs_define
class PullDestination:
    """Deliveries wait in the subscription's inbox for a consumer to read and answer them; see `SubscriptionDestination`.

    Example:
        {'type': 'pull'}

    Attributes:
        type_ (PullDestinationType): Pull (an inbox read over the API).
    """

    type_: PullDestinationType

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
        type_ = PullDestinationType(d.pop("type"))

        pull_destination = cls(
            type_=type_,
        )

        return pull_destination
