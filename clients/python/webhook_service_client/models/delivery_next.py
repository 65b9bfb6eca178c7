from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_timeline_state import DeliveryTimelineState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_next_wait import DeliveryNextWait


T = TypeVar("T", bound="DeliveryNext")


@_attrs_define
class DeliveryNext:
    """What happens next to a delivery.

    Attributes:
        final (bool): True when nothing more happens.
        state (DeliveryTimelineState): `pending` before the first attempt is logged; after it the state of the latest
            attempt
            (`retrying`, `delivered`, `failed`, `stopped`), or `cancelled` when the subscription stopped
            taking events (paused, disabled, deleted) while a retry was due.
        attempt (int | Unset): The number of the next attempt, when one follows.
        at (datetime.datetime | Unset): When the next attempt falls due (or the delivery is cancelled); absent when
            final or unknown.
        reason (str | Unset): Why the delivery ended as it did, why the next attempt will not be made, or what it waits
            for.
        waiting (DeliveryNextWait | Unset): What a delivery's next attempt waits for, without an end time of its own.
            `ordering`: the first
            attempt of an `ordering: per_key` subscription waits for the earlier event of its ordering key to
            be delivered there (or to fail, stop or be cancelled); it follows when that one's delivery ends.
    """

    final: bool
    state: DeliveryTimelineState
    attempt: int | Unset = UNSET
    at: datetime.datetime | Unset = UNSET
    reason: str | Unset = UNSET
    waiting: DeliveryNextWait | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        final = self.final

        state = self.state.value

        attempt = self.attempt

        at: str | Unset = UNSET
        if not isinstance(self.at, Unset):
            at = self.at.isoformat()

        reason = self.reason

        waiting: dict[str, Any] | Unset = UNSET
        if not isinstance(self.waiting, Unset):
            waiting = self.waiting.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "final": final,
                "state": state,
            }
        )
        if attempt is not UNSET:
            field_dict["attempt"] = attempt
        if at is not UNSET:
            field_dict["at"] = at
        if reason is not UNSET:
            field_dict["reason"] = reason
        if waiting is not UNSET:
            field_dict["waiting"] = waiting

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_next_wait import DeliveryNextWait

        d = dict(src_dict)
        final = d.pop("final")

        state = DeliveryTimelineState(d.pop("state"))

        attempt = d.pop("attempt", UNSET)

        _at = d.pop("at", UNSET)
        at: datetime.datetime | Unset
        if isinstance(_at, Unset):
            at = UNSET
        else:
            at = datetime.datetime.fromisoformat(_at)

        reason = d.pop("reason", UNSET)

        _waiting = d.pop("waiting", UNSET)
        waiting: DeliveryNextWait | Unset
        if isinstance(_waiting, Unset):
            waiting = UNSET
        else:
            waiting = DeliveryNextWait.from_dict(_waiting)

        delivery_next = cls(
            final=final,
            state=state,
            attempt=attempt,
            at=at,
            reason=reason,
            waiting=waiting,
        )

        delivery_next.additional_properties = d
        return delivery_next

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
