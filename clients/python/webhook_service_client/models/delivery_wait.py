from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_wait_reason import DeliveryWaitReason
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_backoff import DeliveryBackoff


T = TypeVar("T", bound="DeliveryWait")


@_attrs_define
class DeliveryWait:
    """One wait of a delivery.

    Attributes:
        after_attempt (int): The attempt it follows (0 before the first).
        reason (DeliveryWaitReason): Why a delivery waited: `backoff` (the retry schedule's wait n of m, with jitter),
            `retry_after`
            (the receiver's `Retry-After` on a 429 or 503, longer than the schedule), `rate_limit` (the
            subscription's deliveries per second were used up), `max_in_flight` (its endpoint had that many
            POSTs running), `pull_outcome` (a pull subscription's message waited in its inbox for the
            consumer's outcome). More reasons may be added. A subscription paused, disabled or deleted while a retry waits
            shows in `next`:
            the delivery is cancelled when that retry falls due.
        started_at (datetime.datetime): When the wait began.
        ends_at (datetime.datetime): When it ended, or is to end.
        detail (str): The wait in words.
        backoff (DeliveryBackoff | Unset): Wait n of m of a retry schedule.
        deferrals (int | Unset): How many times the attempt was put off, for `rate_limit`, `max_in_flight` and
            `pull_outcome`.
    """

    after_attempt: int
    reason: DeliveryWaitReason
    started_at: datetime.datetime
    ends_at: datetime.datetime
    detail: str
    backoff: DeliveryBackoff | Unset = UNSET
    deferrals: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        after_attempt = self.after_attempt

        reason = self.reason.value

        started_at = self.started_at.isoformat()

        ends_at = self.ends_at.isoformat()

        detail = self.detail

        backoff: dict[str, Any] | Unset = UNSET
        if not isinstance(self.backoff, Unset):
            backoff = self.backoff.to_dict()

        deferrals = self.deferrals

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "after_attempt": after_attempt,
                "reason": reason,
                "started_at": started_at,
                "ends_at": ends_at,
                "detail": detail,
            }
        )
        if backoff is not UNSET:
            field_dict["backoff"] = backoff
        if deferrals is not UNSET:
            field_dict["deferrals"] = deferrals

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delivery_backoff import DeliveryBackoff

        d = dict(src_dict)
        after_attempt = d.pop("after_attempt")

        reason = DeliveryWaitReason(d.pop("reason"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        detail = d.pop("detail")

        _backoff = d.pop("backoff", UNSET)
        backoff: DeliveryBackoff | Unset
        if isinstance(_backoff, Unset):
            backoff = UNSET
        else:
            backoff = DeliveryBackoff.from_dict(_backoff)

        deferrals = d.pop("deferrals", UNSET)

        delivery_wait = cls(
            after_attempt=after_attempt,
            reason=reason,
            started_at=started_at,
            ends_at=ends_at,
            detail=detail,
            backoff=backoff,
            deferrals=deferrals,
        )

        delivery_wait.additional_properties = d
        return delivery_wait

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
