from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.effective_retry_source import EffectiveRetrySource

T = TypeVar("T", bound="EffectiveRetry")


@_attrs_define
class EffectiveRetry:
    """The retry schedule a subscription's deliveries use.

    Example:
        {'schedule': ['1m', '5m', '15m', '30m', '1h', '2h'], 'max_attempts': 7, 'source': 'service'}

    Attributes:
        schedule (list[str]): Waits after attempt 1, 2, … in the largest whole unit (`90s`, `5m`, `2h`); the last one
            repeats.
        max_attempts (int): Attempts in all, the first included.
        source (EffectiveRetrySource): `service`: the subscription sets none and follows the service's defaults;
            `subscription`: its own `retry`.
    """

    schedule: list[str]
    max_attempts: int
    source: EffectiveRetrySource
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        schedule = self.schedule

        max_attempts = self.max_attempts

        source = self.source.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "schedule": schedule,
                "max_attempts": max_attempts,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        schedule = cast(list[str], d.pop("schedule"))

        max_attempts = d.pop("max_attempts")

        source = EffectiveRetrySource(d.pop("source"))

        effective_retry = cls(
            schedule=schedule,
            max_attempts=max_attempts,
            source=source,
        )

        effective_retry.additional_properties = d
        return effective_retry

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
