from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.pull_destination_type import PullDestinationType
from ..types import UNSET, Unset

T = TypeVar("T", bound="PullDestination")


@_attrs_define
class PullDestination:
    """Deliveries wait in the subscription's inbox for a consumer to read and answer them; see `SubscriptionDestination`.

    Example:
        {'type': 'pull', 'ack_deadline_seconds': 30}

    Attributes:
        type_ (PullDestinationType): Pull (an inbox read over the API).
        ack_deadline_seconds (int | Unset): How long the consumer has to report a message's outcome once it is in the
            inbox; past it the attempt is a `timeout`, retried on the subscription's schedule. Raise it for a consumer whose
            work takes longer. Reads always show it (30 when never set). Default: 30.
    """

    type_: PullDestinationType
    ack_deadline_seconds: int | Unset = 30

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        ack_deadline_seconds = self.ack_deadline_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if ack_deadline_seconds is not UNSET:
            field_dict["ack_deadline_seconds"] = ack_deadline_seconds

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = PullDestinationType(d.pop("type"))

        ack_deadline_seconds = d.pop("ack_deadline_seconds", UNSET)

        pull_destination = cls(
            type_=type_,
            ack_deadline_seconds=ack_deadline_seconds,
        )

        return pull_destination
