from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StockLevel")


@_attrs_define
class StockLevel:
    """Stock of one product.

    Attributes:
        product_id (int): Catalog product identifier.
        sku (str): Stock keeping unit.
        quantity (int): Units in stock (never below zero).
        low_stock_threshold (int): `stock.low` is emitted when the level falls to or below this many units (from above
            it). 5 unless set.
        updated_at (datetime.datetime): When the level last changed.
    """

    product_id: int
    sku: str
    quantity: int
    low_stock_threshold: int
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        product_id = self.product_id

        sku = self.sku

        quantity = self.quantity

        low_stock_threshold = self.low_stock_threshold

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "product_id": product_id,
                "sku": sku,
                "quantity": quantity,
                "low_stock_threshold": low_stock_threshold,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        product_id = d.pop("product_id")

        sku = d.pop("sku")

        quantity = d.pop("quantity")

        low_stock_threshold = d.pop("low_stock_threshold")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        stock_level = cls(
            product_id=product_id,
            sku=sku,
            quantity=quantity,
            low_stock_threshold=low_stock_threshold,
            updated_at=updated_at,
        )

        stock_level.additional_properties = d
        return stock_level

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
