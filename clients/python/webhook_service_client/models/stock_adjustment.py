from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="StockAdjustment")


@_attrs_define
class StockAdjustment:
    """A stock adjustment. At most one of `quantity` and `delta`; at least one field.

    Attributes:
        quantity (int | Unset): The new level (e.g. after a stock count).
        delta (int | Unset): Units added (positive) or removed (negative); never 0.
        low_stock_threshold (int | Unset): `stock.low` is emitted when the level falls to or below this many units (from
            above it). 5 unless set.
    """

    quantity: int | Unset = UNSET
    delta: int | Unset = UNSET
    low_stock_threshold: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        quantity = self.quantity

        delta = self.delta

        low_stock_threshold = self.low_stock_threshold

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if quantity is not UNSET:
            field_dict["quantity"] = quantity
        if delta is not UNSET:
            field_dict["delta"] = delta
        if low_stock_threshold is not UNSET:
            field_dict["low_stock_threshold"] = low_stock_threshold

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        quantity = d.pop("quantity", UNSET)

        delta = d.pop("delta", UNSET)

        low_stock_threshold = d.pop("low_stock_threshold", UNSET)

        stock_adjustment = cls(
            quantity=quantity,
            delta=delta,
            low_stock_threshold=low_stock_threshold,
        )

        return stock_adjustment
