from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="OrderItemCreate")


@_attrs_define
class OrderItemCreate:
    """One line of a new order.

    Attributes:
        product_id (int): Catalog product identifier.
        quantity (int): Number of units.
    """

    product_id: int
    quantity: int

    def to_dict(self) -> dict[str, Any]:
        product_id = self.product_id

        quantity = self.quantity

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "product_id": product_id,
                "quantity": quantity,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        product_id = d.pop("product_id")

        quantity = d.pop("quantity")

        order_item_create = cls(
            product_id=product_id,
            quantity=quantity,
        )

        return order_item_create
