from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SubscriptionRetry")


@_attrs_define
class SubscriptionRetry:
    """A subscription's own retry schedule, in place of the service's (`DELIVERY_RETRY_SCHEDULE`,
    `DELIVERY_MAX_ATTEMPTS`; by default 1m, 5m, 15m, 30m, 60m, 120m and 7 attempts). Bounds,
    each refused with a 422 naming its field (`/body/retry/schedule/<i>`,
    `/body/retry/max_attempts`, `/body/retry` for the total) and nothing written:
    `schedule` lists 1 to 10 waits, each a whole number of `s`, `m` or `h` from `1s` to `6h`;
    `max_attempts` is 1 to 10, the first attempt included; the waits those attempts use (the
    last wait repeating) add up to at most `12h`. The service still stretches each wait by up
    to its jitter (`DELIVERY_JITTER`, 10 % by default) and waits longer when a receiver's
    `Retry-After` asks for it. Which answers are retried does not change (see the delivery
    rules); when the attempts run out the administrator is alerted as usual.

        Example:
            {'schedule': ['30s', '5m', '1h'], 'max_attempts': 5}

        Attributes:
            schedule (list[str]): Waits after attempt 1, 2, … (`30s`, `5m`, `2h`); the last one repeats. Example: ['30s',
                '5m', '1h'].
            max_attempts (int): Attempts in all, the first included (1 to 10). Example: 5.
    """

    schedule: list[str]
    max_attempts: int

    def to_dict(self) -> dict[str, Any]:
        schedule = self.schedule

        max_attempts = self.max_attempts

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schedule": schedule,
                "max_attempts": max_attempts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        schedule = cast(list[str], d.pop("schedule"))

        max_attempts = d.pop("max_attempts")

        subscription_retry = cls(
            schedule=schedule,
            max_attempts=max_attempts,
        )

        return subscription_retry
