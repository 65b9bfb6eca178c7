from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.order_status import OrderStatus

T = TypeVar("T", bound="OrderUpdate")


@_attrs_define
class OrderUpdate:
    """A status change.

    Attributes:
        status (OrderStatus): Order status. New orders are `pending`. Allowed moves: `pending` → `paid` → `shipped` →
            `delivered`,
            and `pending` or `paid` → `cancelled`. `delivered` and `cancelled` are final.
    """

    status: OrderStatus

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = OrderStatus(d.pop("status"))

        order_update = cls(
            status=status,
        )

        return order_update
