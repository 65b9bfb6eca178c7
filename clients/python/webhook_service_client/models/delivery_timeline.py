from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_timeline_state import DeliveryTimelineState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_attempt import DeliveryAttempt
    from ..models.delivery_next import DeliveryNext
    from ..models.delivery_wait import DeliveryWait


T = TypeVar("T", bound="DeliveryTimeline")


@_attrs_define
class DeliveryTimeline:
    """One event's delivery to one subscription, attempt by attempt and wait by wait, and what happens next.

    Attributes:
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        state (DeliveryTimelineState): `pending` before the first attempt is logged; after it the state of the latest
            attempt
            (`retrying`, `delivered`, `failed`, `stopped`), or `cancelled` when the subscription stopped
            taking events (paused, disabled, deleted) while a retry was due.
        attempts (list[DeliveryAttempt]): The attempts made, oldest first.
        waits (list[DeliveryWait]): Every wait between the attempts, and after the last one while it lasts, oldest
            first.
        next_ (DeliveryNext): What happens next to a delivery.
        workflow_id (str | Unset): The Temporal workflow of this attempt series (its top workflow; a large fan-out's
            parts run under it); absent before the first attempt is logged.
        max_attempts (int | Unset): Attempts in all the delivery may make; absent for attempts logged before it was
            recorded.
    """

    event_id: str
    subscription_id: str
    state: DeliveryTimelineState
    attempts: list[DeliveryAttempt]
    waits: list[DeliveryWait]
    next_: DeliveryNext
    workflow_id: str | Unset = UNSET
    max_attempts: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        subscription_id = self.subscription_id

        state = self.state.value

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        waits = []
        for waits_item_data in self.waits:
            waits_item = waits_item_data.to_dict()
            waits.append(waits_item)

        next_ = self.next_.to_dict()

        workflow_id = self.workflow_id

        max_attempts = self.max_attempts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "subscription_id": subscription_id,
                "state": state,
                "attempts": attempts,
                "waits": waits,
                "next": next_,
            }
        )
        if workflow_id is not UNSET:
            field_dict["workflow_id"] = workflow_id
        if max_attempts is not UNSET:
            field_dict["max_attempts"] = max_attempts

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_attempt import DeliveryAttempt
        from ..models.delivery_next import DeliveryNext
        from ..models.delivery_wait import DeliveryWait

        d = dict(src_dict)
        event_id = d.pop("event_id")

        subscription_id = d.pop("subscription_id")

        state = DeliveryTimelineState(d.pop("state"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = DeliveryAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        waits = []
        _waits = d.pop("waits")
        for waits_item_data in _waits:
            waits_item = DeliveryWait.from_dict(waits_item_data)

            waits.append(waits_item)

        next_ = DeliveryNext.from_dict(d.pop("next"))

        workflow_id = d.pop("workflow_id", UNSET)

        max_attempts = d.pop("max_attempts", UNSET)

        delivery_timeline = cls(
            event_id=event_id,
            subscription_id=subscription_id,
            state=state,
            attempts=attempts,
            waits=waits,
            next_=next_,
            workflow_id=workflow_id,
            max_attempts=max_attempts,
        )

        delivery_timeline.additional_properties = d
        return delivery_timeline

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
