from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="StatsBucket")


@_attrs_define
class StatsBucket:
    """Attempts started in one hour.

    Attributes:
        start (datetime.datetime): Start of the hour.
        attempts (int): Attempts started in this hour.
        delivered (int): Attempts answered with 2xx.
        failed (int): Attempts that were not delivered (any other outcome).
        latency_p50_ms (int | Unset): Median `duration_ms` of the hour's attempts; absent when there were none.
        latency_p95_ms (int | Unset): 95th percentile of `duration_ms`; absent when there were none.
    """

    start: datetime.datetime
    attempts: int
    delivered: int
    failed: int
    latency_p50_ms: int | Unset = UNSET
    latency_p95_ms: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        start = self.start.isoformat()

        attempts = self.attempts

        delivered = self.delivered

        failed = self.failed

        latency_p50_ms = self.latency_p50_ms

        latency_p95_ms = self.latency_p95_ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "start": start,
                "attempts": attempts,
                "delivered": delivered,
                "failed": failed,
            }
        )
        if latency_p50_ms is not UNSET:
            field_dict["latency_p50_ms"] = latency_p50_ms
        if latency_p95_ms is not UNSET:
            field_dict["latency_p95_ms"] = latency_p95_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        start = datetime.datetime.fromisoformat(d.pop("start"))

        attempts = d.pop("attempts")

        delivered = d.pop("delivered")

        failed = d.pop("failed")

        latency_p50_ms = d.pop("latency_p50_ms", UNSET)

        latency_p95_ms = d.pop("latency_p95_ms", UNSET)

        stats_bucket = cls(
            start=start,
            attempts=attempts,
            delivered=delivered,
            failed=failed,
            latency_p50_ms=latency_p50_ms,
            latency_p95_ms=latency_p95_ms,
        )

        stats_bucket.additional_properties = d
        return stats_bucket

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
