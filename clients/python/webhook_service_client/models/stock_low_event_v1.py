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
    from ..models.stock_low_event_data import StockLowEventData


T = TypeVar("T", bound="StockLowEventV1")


@_attrs_define
class StockLowEventV1:
    """v1 envelope of `stock.low`.

    Attributes:
        event (Literal['stock.low']): Event type name.
        id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        data (StockLowEventData): Payload of `stock.low`. Receivers must ignore fields they do not know.
    """

    event: Literal["stock.low"]
    id: str
    data: StockLowEventData

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
        from ..models.stock_low_event_data import StockLowEventData

        d = dict(src_dict)
        event = cast(Literal["stock.low"], d.pop("event"))
        if event != "stock.low":
            raise ValueError(f"event must match const 'stock.low', got '{event}'")

        id = d.pop("id")

        data = StockLowEventData.from_dict(d.pop("data"))

        stock_low_event_v1 = cls(
            event=event,
            id=id,
            data=data,
        )

        return stock_low_event_v1
