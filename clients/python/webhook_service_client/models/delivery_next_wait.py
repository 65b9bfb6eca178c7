from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_next_wait_event_state import DeliveryNextWaitEventState
from ..models.delivery_next_wait_reason import DeliveryNextWaitReason

T = TypeVar("T", bound="DeliveryNextWait")


@_attrs_define
class DeliveryNextWait:
    """What a delivery's next attempt waits for, without an end time of its own. `ordering`: the first
    attempt of an `ordering: per_key` subscription waits for the earlier event of its ordering key to
    be delivered there (or to fail, stop or be cancelled); it follows when that one's delivery ends.

        Attributes:
            reason (DeliveryNextWaitReason): Why it waits; more reasons may be added.
            started_at (datetime.datetime): Since when it waits for this event.
            key (str): The ordering key (`order:<id>`, `product:<id>`), as the `webhook-ordering-key` header carries it.
            event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
            event_state (DeliveryNextWaitEventState): `not_logged`: that event was written but is not logged yet (the relay
                logs it soon);
                `in_delivery`: its delivery to this subscription has not ended yet (being attempted, or retrying).
    """

    reason: DeliveryNextWaitReason
    started_at: datetime.datetime
    key: str
    event_id: str
    event_state: DeliveryNextWaitEventState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason.value

        started_at = self.started_at.isoformat()

        key = self.key

        event_id = self.event_id

        event_state = self.event_state.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reason": reason,
                "started_at": started_at,
                "key": key,
                "event_id": event_id,
                "event_state": event_state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reason = DeliveryNextWaitReason(d.pop("reason"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        key = d.pop("key")

        event_id = d.pop("event_id")

        event_state = DeliveryNextWaitEventState(d.pop("event_state"))

        delivery_next_wait = cls(
            reason=reason,
            started_at=started_at,
            key=key,
            event_id=event_id,
            event_state=event_state,
        )

        delivery_next_wait.additional_properties = d
        return delivery_next_wait

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
