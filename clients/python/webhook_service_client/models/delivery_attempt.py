from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_attempt_state import DeliveryAttemptState
from ..models.delivery_outcome import DeliveryOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="DeliveryAttempt")


@_attrs_define
class DeliveryAttempt:
    """One logged attempt to deliver an event to a subscription.

    Attributes:
        id (str): Attempt identifier.
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        attempt (int): Attempt number for this event and subscription, starting at 1.
        started_at (datetime.datetime): When the request was started.
        duration_ms (int): Time until the answer, timeout or error, in milliseconds.
        outcome (DeliveryOutcome): Outcome of one attempt: `delivered` (2xx), `http_error` (non-2xx answer), `timeout`
            (no answer in time),
            `network_error` (DNS, connection, TLS or egress proxy failure, or the subscription's OAuth 2.0 token endpoint
            failing; `error` says which), `blocked` (the URL resolved to a disallowed address; not sent), `rejected` (a
            broker destination refused the message for good: unroutable, no such exchange, topic or JetStream stream, a
            Redis key that is not a stream, no such SQS queue, a message SQS refuses, access refused or wrong credentials;
            `error` says which; stops the delivery like a 4xx), `hold_expired` (not sent: the subscription was paused and
            held the delivery longer than `SUBSCRIPTION_HOLD_MAX`; state `failed`, one alert for the subscription).
        state (DeliveryAttemptState): Where an event's delivery to a subscription stood after an attempt: `delivered`
            (2xx),
            `retrying` (another attempt follows at `next_attempt_at`), `failed` (attempts ran out; an
            administrator was alerted), `stopped` (a 4xx other than 408/429, or a refused URL: no retry).
        status_code (int | Unset): HTTP status the receiver answered, when it answered; 200 for a message a broker
            destination confirmed.
        error (str | Unset): Error description for timeouts, network errors, blocked URLs and a broker's refusal
            (`rejected`).
        response_excerpt (str | Unset): Beginning of the receiver's response body (NUL and unpaired surrogates replaced
            by U+FFFD, the subscription's credentials that it echoes replaced by `[redacted]`); left out for a caller who
            may not read the subscription's events' data.
        next_attempt_at (datetime.datetime | Unset): When the next attempt is scheduled; absent when no retry follows.
    """

    id: str
    event_id: str
    subscription_id: str
    attempt: int
    started_at: datetime.datetime
    duration_ms: int
    outcome: DeliveryOutcome
    state: DeliveryAttemptState
    status_code: int | Unset = UNSET
    error: str | Unset = UNSET
    response_excerpt: str | Unset = UNSET
    next_attempt_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event_id = self.event_id

        subscription_id = self.subscription_id

        attempt = self.attempt

        started_at = self.started_at.isoformat()

        duration_ms = self.duration_ms

        outcome = self.outcome.value

        state = self.state.value

        status_code = self.status_code

        error = self.error

        response_excerpt = self.response_excerpt

        next_attempt_at: str | Unset = UNSET
        if not isinstance(self.next_attempt_at, Unset):
            next_attempt_at = self.next_attempt_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "event_id": event_id,
                "subscription_id": subscription_id,
                "attempt": attempt,
                "started_at": started_at,
                "duration_ms": duration_ms,
                "outcome": outcome,
                "state": state,
            }
        )
        if status_code is not UNSET:
            field_dict["status_code"] = status_code
        if error is not UNSET:
            field_dict["error"] = error
        if response_excerpt is not UNSET:
            field_dict["response_excerpt"] = response_excerpt
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        event_id = d.pop("event_id")

        subscription_id = d.pop("subscription_id")

        attempt = d.pop("attempt")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        duration_ms = d.pop("duration_ms")

        outcome = DeliveryOutcome(d.pop("outcome"))

        state = DeliveryAttemptState(d.pop("state"))

        status_code = d.pop("status_code", UNSET)

        error = d.pop("error", UNSET)

        response_excerpt = d.pop("response_excerpt", UNSET)

        _next_attempt_at = d.pop("next_attempt_at", UNSET)
        next_attempt_at: datetime.datetime | Unset
        if isinstance(_next_attempt_at, Unset):
            next_attempt_at = UNSET
        else:
            next_attempt_at = datetime.datetime.fromisoformat(_next_attempt_at)

        delivery_attempt = cls(
            id=id,
            event_id=event_id,
            subscription_id=subscription_id,
            attempt=attempt,
            started_at=started_at,
            duration_ms=duration_ms,
            outcome=outcome,
            state=state,
            status_code=status_code,
            error=error,
            response_excerpt=response_excerpt,
            next_attempt_at=next_attempt_at,
        )

        delivery_attempt.additional_properties = d
        return delivery_attempt

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
