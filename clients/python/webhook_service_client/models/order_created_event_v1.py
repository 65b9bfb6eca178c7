from __future__ import annotations

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

if TYPE_CHECKING:
    from ..models.order_event_data import OrderEventData


T = TypeVar("T", bound="OrderCreatedEventV1")


@_attrs_define
class OrderCreatedEventV1:
    """v1 envelope of `order.created`.

    Attributes:
        event (Literal['order.created']): Event type name.
        id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        data (OrderEventData): Payload of `order.created`, and the order fields of `order.updated`. Its order lines
            (`items`) are inlined only while the envelope stays within the server's `WEBHOOK_INLINE_LIMIT`; above it they
            are left out and `truncated` is true (GET `url` for them). Receivers must ignore fields they do not know.
    """

    event: Literal["order.created"]
    id: str
    data: OrderEventData

    def to_dict(self) -> dict[str, Any]:
        event = self.event

        id = self.id

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event": event,
                "id": id,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.order_event_data import OrderEventData

        d = dict(src_dict)
        event = cast(Literal["order.created"], d.pop("event"))
        if event != "order.created":
            raise ValueError(f"event must match const 'order.created', got '{event}'")

        id = d.pop("id")

        data = OrderEventData.from_dict(d.pop("data"))

        order_created_event_v1 = cls(
            event=event,
            id=id,
            data=data,
        )

        return order_created_event_v1
