from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.alert_kind import AlertKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="Alert")


@_attrs_define
class Alert:
    """An alert raised for administrators, and shown to the owner of the subscription concerned.

    Attributes:
        id (str): Alert identifier.
        kind (AlertKind): `delivery_failed`: an event's attempts were exhausted, or a paused subscription's held
            deliveries passed the hold limit (one alert for them all); `subscription_disabled`: the service disabled a
            subscription.
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        message (str): Human-readable summary.
        created_at (datetime.datetime): When the alert was raised.
        event_id (str | Unset): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
    """

    id: str
    kind: AlertKind
    subscription_id: str
    message: str
    created_at: datetime.datetime
    event_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        subscription_id = self.subscription_id

        message = self.message

        created_at = self.created_at.isoformat()

        event_id = self.event_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "subscription_id": subscription_id,
                "message": message,
                "created_at": created_at,
            }
        )
        if event_id is not UNSET:
            field_dict["event_id"] = event_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        kind = AlertKind(d.pop("kind"))

        subscription_id = d.pop("subscription_id")

        message = d.pop("message")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        event_id = d.pop("event_id", UNSET)

        alert = cls(
            id=id,
            kind=kind,
            subscription_id=subscription_id,
            message=message,
            created_at=created_at,
            event_id=event_id,
        )

        alert.additional_properties = d
        return alert

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
