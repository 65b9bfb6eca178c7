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
    from ..models.order_updated_event_data import OrderUpdatedEventData


T = TypeVar("T", bound="OrderUpdatedEventV1")


@_attrs_define
class OrderUpdatedEventV1:
    """v1 envelope of `order.updated`.

    Attributes:
        event (Literal['order.updated']): Event type name.
        id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        data (OrderUpdatedEventData): Payload of `order.updated`. The order as it is after the change, and the status it
            had before. Receivers must ignore fields they do not know.
    """

    event: Literal["order.updated"]
    id: str
    data: OrderUpdatedEventData

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
        from ..models.order_updated_event_data import OrderUpdatedEventData

        d = dict(src_dict)
        event = cast(Literal["order.updated"], d.pop("event"))
        if event != "order.updated":
            raise ValueError(f"event must match const 'order.updated', got '{event}'")

        id = d.pop("id")

        data = OrderUpdatedEventData.from_dict(d.pop("data"))

        order_updated_event_v1 = cls(
            event=event,
            id=id,
            data=data,
        )

        return order_updated_event_v1
