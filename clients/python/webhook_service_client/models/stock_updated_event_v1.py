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
    from ..models.stock_updated_event_data import StockUpdatedEventData


T = TypeVar("T", bound="StockUpdatedEventV1")


@_attrs_define
class StockUpdatedEventV1:
    """v1 envelope of `stock.updated`.

    Attributes:
        event (Literal['stock.updated']): Event type name.
        id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        data (StockUpdatedEventData): Payload of `stock.updated`. Receivers must ignore fields they do not know.
    """

    event: Literal["stock.updated"]
    id: str
    data: StockUpdatedEventData

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
        from ..models.stock_updated_event_data import StockUpdatedEventData

        d = dict(src_dict)
        event = cast(Literal["stock.updated"], d.pop("event"))
        if event != "stock.updated":
            raise ValueError(f"event must match const 'stock.updated', got '{event}'")

        id = d.pop("id")

        data = StockUpdatedEventData.from_dict(d.pop("data"))

        stock_updated_event_v1 = cls(
            event=event,
            id=id,
            data=data,
        )

        return stock_updated_event_v1
