from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_timeline_state import DeliveryTimelineState
from ..types import UNSET, Unset

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
        reason (str | Unset): Why the delivery ended as it did, or why the next attempt will not be made.
    """

    final: bool
    state: DeliveryTimelineState
    attempt: int | Unset = UNSET
    at: datetime.datetime | Unset = UNSET
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        final = self.final

        state = self.state.value

        attempt = self.attempt

        at: str | Unset = UNSET
        if not isinstance(self.at, Unset):
            at = self.at.isoformat()

        reason = self.reason

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

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
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

        delivery_next = cls(
            final=final,
            state=state,
            attempt=attempt,
            at=at,
            reason=reason,
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
