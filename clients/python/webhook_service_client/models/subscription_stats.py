from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.stats_bucket import StatsBucket
    from ..models.stats_totals import StatsTotals


T = TypeVar("T", bound="SubscriptionStats")


@_attrs_define
class SubscriptionStats:
    """Hourly delivery statistics of one subscription.

    Attributes:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        from_ (datetime.datetime): Start of the window (the start of the oldest bucket).
        to (datetime.datetime): End of the window (now).
        bucket_seconds (Literal[3600]): Length of each bucket, in seconds.
        buckets (list[StatsBucket]): One bucket per hour, oldest first.
        totals (StatsTotals): Totals over the window.
    """

    subscription_id: str
    from_: datetime.datetime
    to: datetime.datetime
    bucket_seconds: Literal[3600]
    buckets: list[StatsBucket]
    totals: StatsTotals
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subscription_id = self.subscription_id

        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        bucket_seconds = self.bucket_seconds

        buckets = []
        for buckets_item_data in self.buckets:
            buckets_item = buckets_item_data.to_dict()
            buckets.append(buckets_item)

        totals = self.totals.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subscription_id": subscription_id,
                "from": from_,
                "to": to,
                "bucket_seconds": bucket_seconds,
                "buckets": buckets,
                "totals": totals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.stats_bucket import StatsBucket
        from ..models.stats_totals import StatsTotals

        d = dict(src_dict)
        subscription_id = d.pop("subscription_id")

        from_ = datetime.datetime.fromisoformat(d.pop("from"))

        to = datetime.datetime.fromisoformat(d.pop("to"))

        bucket_seconds = cast(Literal[3600], d.pop("bucket_seconds"))
        if bucket_seconds != 3600:
            raise ValueError(
                f"bucket_seconds must match const 3600, got '{bucket_seconds}'"
            )

        buckets = []
        _buckets = d.pop("buckets")
        for buckets_item_data in _buckets:
            buckets_item = StatsBucket.from_dict(buckets_item_data)

            buckets.append(buckets_item)

        totals = StatsTotals.from_dict(d.pop("totals"))

        subscription_stats = cls(
            subscription_id=subscription_id,
            from_=from_,
            to=to,
            bucket_seconds=bucket_seconds,
            buckets=buckets,
            totals=totals,
        )

        subscription_stats.additional_properties = d
        return subscription_stats

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
