from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="StatsTotals")


@_attrs_define
class StatsTotals:
    """Totals over the window.

    Attributes:
        attempts (int): Attempts in the window.
        delivered (int): Attempts answered with 2xx.
        failed (int): Attempts not delivered.
        success_rate (float | Unset): delivered ÷ attempts; absent when there were no attempts.
        latency_p50_ms (int | Unset): Median `duration_ms` over the window; absent when there were no attempts.
        latency_p95_ms (int | Unset): 95th percentile of `duration_ms` over the window; absent when there were no
            attempts.
    """

    attempts: int
    delivered: int
    failed: int
    success_rate: float | Unset = UNSET
    latency_p50_ms: int | Unset = UNSET
    latency_p95_ms: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        delivered = self.delivered

        failed = self.failed

        success_rate = self.success_rate

        latency_p50_ms = self.latency_p50_ms

        latency_p95_ms = self.latency_p95_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "delivered": delivered,
                "failed": failed,
            }
        )
        if success_rate is not UNSET:
            field_dict["success_rate"] = success_rate
        if latency_p50_ms is not UNSET:
            field_dict["latency_p50_ms"] = latency_p50_ms
        if latency_p95_ms is not UNSET:
            field_dict["latency_p95_ms"] = latency_p95_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        delivered = d.pop("delivered")

        failed = d.pop("failed")

        success_rate = d.pop("success_rate", UNSET)

        latency_p50_ms = d.pop("latency_p50_ms", UNSET)

        latency_p95_ms = d.pop("latency_p95_ms", UNSET)

        stats_totals = cls(
            attempts=attempts,
            delivered=delivered,
            failed=failed,
            success_rate=success_rate,
            latency_p50_ms=latency_p50_ms,
            latency_p95_ms=latency_p95_ms,
        )

        stats_totals.additional_properties = d
        return stats_totals

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
