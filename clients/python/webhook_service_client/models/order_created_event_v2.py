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

if TYPE_CHECKING:
    from ..models.order_event_data import OrderEventData


T = TypeVar("T", bound="OrderCreatedEventV2")


@_attrs_define
class OrderCreatedEventV2:
    """v2 envelope of `order.created`.

    Attributes:
        event (Literal['order.created']): Event type name.
        id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        api_version (Literal[2]): Envelope version.
        created_at (datetime.datetime): When the event occurred.
        data (OrderEventData): Payload of `order.created`, and the order fields of `order.updated`. Its order lines
            (`items`) are inlined only while the envelope stays within the server's `WEBHOOK_INLINE_LIMIT`; above it they
            are left out and `truncated` is true (GET `url` for them). Receivers must ignore fields they do not know.
    """

    event: Literal["order.created"]
    id: str
    api_version: Literal[2]
    created_at: datetime.datetime
    data: OrderEventData

    def to_dict(self) -> dict[str, Any]:
        event = self.event

        id = self.id

        api_version = self.api_version

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event": event,
                "id": id,
                "api_version": api_version,
                "created_at": created_at,
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

        api_version = cast(Literal[2], d.pop("api_version"))
        if api_version != 2:
            raise ValueError(f"api_version must match const 2, got '{api_version}'")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = OrderEventData.from_dict(d.pop("data"))

        order_created_event_v2 = cls(
            event=event,
            id=id,
            api_version=api_version,
            created_at=created_at,
            data=data,
        )

        return order_created_event_v2
