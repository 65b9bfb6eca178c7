from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.order_status import OrderStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.order_item import OrderItem


T = TypeVar("T", bound="OrderUpdatedEventData")


@_attrs_define
class OrderUpdatedEventData:
    """Payload of `order.updated`. The order as it is after the change, and the status it had before. Receivers must ignore
    fields they do not know.

        Attributes:
            order_id (int): The order concerned.
            total (float): Order total in currency units.
            currency (str): ISO 4217 currency code.
            status (OrderStatus): Order status. New orders are `pending`. Allowed moves: `pending` → `paid` → `shipped` →
                `delivered`,
                and `pending` or `paid` → `cancelled`. `delivered` and `cancelled` are final.
            user_id (int): The ordering user.
            url (str): Absolute URL of the event's resource in this API; its origin is the server's `PUBLIC_URL`. A `GET`
                with an API key of the subscription's owner (scope `resources:read`; `webhooks:read` for a subscription) returns
                the resource as it is now, in full.
            previous_status (OrderStatus): Order status. New orders are `pending`. Allowed moves: `pending` → `paid` →
                `shipped` → `delivered`,
                and `pending` or `paid` → `cancelled`. `delivered` and `cancelled` are final.
            item_count (int | Unset): Number of order lines, also when `items` is left out. Absent only on events recorded
                before events carried their items.
            items (list[OrderItem] | Unset): The order lines as ordered (they never change afterwards). Absent when the
                envelope would exceed `WEBHOOK_INLINE_LIMIT` (then `truncated` is true), and on events recorded before events
                carried their items; GET `url` for them.
            truncated (bool | Unset): Present, and true (never false), only when bulky fields (`items`) were left out
                because the envelope would exceed `WEBHOOK_INLINE_LIMIT`; GET `url` for the full order.
    """

    order_id: int
    total: float
    currency: str
    status: OrderStatus
    user_id: int
    url: str
    previous_status: OrderStatus
    item_count: int | Unset = UNSET
    items: list[OrderItem] | Unset = UNSET
    truncated: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        order_id = self.order_id

        total = self.total

        currency = self.currency

        status = self.status.value

        user_id = self.user_id

        url = self.url

        previous_status = self.previous_status.value

        item_count = self.item_count

        items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.items, Unset):
            items = []
            for items_item_data in self.items:
                items_item = items_item_data.to_dict()
                items.append(items_item)

        truncated = self.truncated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "order_id": order_id,
                "total": total,
                "currency": currency,
                "status": status,
                "user_id": user_id,
                "url": url,
                "previous_status": previous_status,
            }
        )
        if item_count is not UNSET:
            field_dict["item_count"] = item_count
        if items is not UNSET:
            field_dict["items"] = items
        if truncated is not UNSET:
            field_dict["truncated"] = truncated

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.order_item import OrderItem

        d = dict(src_dict)
        order_id = d.pop("order_id")

        total = d.pop("total")

        currency = d.pop("currency")

        status = OrderStatus(d.pop("status"))

        user_id = d.pop("user_id")

        url = d.pop("url")

        previous_status = OrderStatus(d.pop("previous_status"))

        item_count = d.pop("item_count", UNSET)

        _items = d.pop("items", UNSET)
        items: list[OrderItem] | Unset = UNSET
        if _items is not UNSET:
            items = []
            for items_item_data in _items:
                items_item = OrderItem.from_dict(items_item_data)

                items.append(items_item)

        truncated = d.pop("truncated", UNSET)

        order_updated_event_data = cls(
            order_id=order_id,
            total=total,
            currency=currency,
            status=status,
            user_id=user_id,
            url=url,
            previous_status=previous_status,
            item_count=item_count,
            items=items,
            truncated=truncated,
        )

        order_updated_event_data.additional_properties = d
        return order_updated_event_data

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
