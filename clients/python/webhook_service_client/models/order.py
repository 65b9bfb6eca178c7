from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.order_status import OrderStatus

if TYPE_CHECKING:
    from ..models.order_item import OrderItem


T = TypeVar("T", bound="Order")


@_attrs_define
class Order:
    """An order.

    Attributes:
        id (int): Order identifier.
        user_id (int): The ordering user.
        status (OrderStatus): Order status. New orders are `pending`. Allowed moves: `pending` → `paid` → `shipped` →
            `delivered`,
            and `pending` or `paid` → `cancelled`. `delivered` and `cancelled` are final.
        items (list[OrderItem]): Order lines.
        total (float): Sum of quantity × unit_price, in currency units.
        currency (str): ISO 4217 currency code.
        date (datetime.datetime): When the order was created.
        updated_at (datetime.datetime): When the order last changed.
    """

    id: int
    user_id: int
    status: OrderStatus
    items: list[OrderItem]
    total: float
    currency: str
    date: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        user_id = self.user_id

        status = self.status.value

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        total = self.total

        currency = self.currency

        date = self.date.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "user_id": user_id,
                "status": status,
                "items": items,
                "total": total,
                "currency": currency,
                "date": date,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.order_item import OrderItem

        d = dict(src_dict)
        id = d.pop("id")

        user_id = d.pop("user_id")

        status = OrderStatus(d.pop("status"))

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = OrderItem.from_dict(items_item_data)

            items.append(items_item)

        total = d.pop("total")

        currency = d.pop("currency")

        date = datetime.datetime.fromisoformat(d.pop("date"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        order = cls(
            id=id,
            user_id=user_id,
            status=status,
            items=items,
            total=total,
            currency=currency,
            date=date,
            updated_at=updated_at,
        )

        order.additional_properties = d
        return order

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
