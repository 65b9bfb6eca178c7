from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type import EventType
from ..models.subscription_event_delivery_state import SubscriptionEventDeliveryState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.subscription_event_data import SubscriptionEventData


T = TypeVar("T", bound="SubscriptionEvent")


@_attrs_define
class SubscriptionEvent:
    """An event sent to a subscription, and where its delivery stands; `data` is present exactly when `data_withheld` is
    absent.

        Attributes:
            id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
            type_ (EventType): Event type name, of the form `<resource>.<action>`.
            created_at (datetime.datetime): When the event happened.
            delivery_state (SubscriptionEventDeliveryState): The state after the latest attempt to this subscription (see
                `DeliveryAttemptState`); `pending` before the first.
            attempts (int): Attempts made to this subscription, redeliveries included.
            data (SubscriptionEventData | Unset): The event's payload, as the envelope's `data` carries it (its schema is
                the type's in the event catalogue), with its `url` (origin `PUBLIC_URL`, or this request's when unset) and
                always in full (bulky parts are never left out here). Absent when the caller lacks a scope the type's
                `required_scopes` names (see `data_withheld`).
            data_withheld (list[str] | Unset): The scopes the caller lacks to read this event's `data` (its type's
                `required_scopes`, e.g. `resources:read` for `order.*`, and `admin` for another owner's data); present only when
                `data` is left out.
            last_attempt_at (datetime.datetime | Unset): When the latest attempt started; absent before the first.
    """

    id: str
    type_: EventType
    created_at: datetime.datetime
    delivery_state: SubscriptionEventDeliveryState
    attempts: int
    data: SubscriptionEventData | Unset = UNSET
    data_withheld: list[str] | Unset = UNSET
    last_attempt_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        delivery_state = self.delivery_state.value

        attempts = self.attempts

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        data_withheld: list[str] | Unset = UNSET
        if not isinstance(self.data_withheld, Unset):
            data_withheld = self.data_withheld

        last_attempt_at: str | Unset = UNSET
        if not isinstance(self.last_attempt_at, Unset):
            last_attempt_at = self.last_attempt_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "created_at": created_at,
                "delivery_state": delivery_state,
                "attempts": attempts,
            }
        )
        if data is not UNSET:
            field_dict["data"] = data
        if data_withheld is not UNSET:
            field_dict["data_withheld"] = data_withheld
        if last_attempt_at is not UNSET:
            field_dict["last_attempt_at"] = last_attempt_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subscription_event_data import SubscriptionEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = EventType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        delivery_state = SubscriptionEventDeliveryState(d.pop("delivery_state"))

        attempts = d.pop("attempts")

        _data = d.pop("data", UNSET)
        data: SubscriptionEventData | Unset
        if isinstance(_data, Unset):
            data = UNSET
        else:
            data = SubscriptionEventData.from_dict(_data)

        data_withheld = cast(list[str], d.pop("data_withheld", UNSET))

        _last_attempt_at = d.pop("last_attempt_at", UNSET)
        last_attempt_at: datetime.datetime | Unset
        if isinstance(_last_attempt_at, Unset):
            last_attempt_at = UNSET
        else:
            last_attempt_at = datetime.datetime.fromisoformat(_last_attempt_at)

        subscription_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            delivery_state=delivery_state,
            attempts=attempts,
            data=data,
            data_withheld=data_withheld,
            last_attempt_at=last_attempt_at,
        )

        subscription_event.additional_properties = d
        return subscription_event

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
