from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.order_item_create import OrderItemCreate


T = TypeVar("T", bound="OrderCreate")


@_attrs_define
class OrderCreate:
    """A new order.

    Attributes:
        user_id (int): The ordering user.
        items (list[OrderItemCreate]): Order lines.
    """

    user_id: int
    items: list[OrderItemCreate]

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "items": items,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.order_item_create import OrderItemCreate

        d = dict(src_dict)
        user_id = d.pop("user_id")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = OrderItemCreate.from_dict(items_item_data)

            items.append(items_item)

        order_create = cls(
            user_id=user_id,
            items=items,
        )

        return order_create
