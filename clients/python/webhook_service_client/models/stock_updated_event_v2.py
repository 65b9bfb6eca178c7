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
    from ..models.stock_updated_event_data import StockUpdatedEventData


T = TypeVar("T", bound="StockUpdatedEventV2")


@_attrs_define
class StockUpdatedEventV2:
    """v2 envelope of `stock.updated`.

    Attributes:
        event (Literal['stock.updated']): Event type name.
        id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        api_version (Literal[2]): Envelope version.
        created_at (datetime.datetime): When the event occurred.
        data (StockUpdatedEventData): Payload of `stock.updated`. Receivers must ignore fields they do not know.
    """

    event: Literal["stock.updated"]
    id: str
    api_version: Literal[2]
    created_at: datetime.datetime
    data: StockUpdatedEventData

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
        from ..models.stock_updated_event_data import StockUpdatedEventData

        d = dict(src_dict)
        event = cast(Literal["stock.updated"], d.pop("event"))
        if event != "stock.updated":
            raise ValueError(f"event must match const 'stock.updated', got '{event}'")

        id = d.pop("id")

        api_version = cast(Literal[2], d.pop("api_version"))
        if api_version != 2:
            raise ValueError(f"api_version must match const 2, got '{api_version}'")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = StockUpdatedEventData.from_dict(d.pop("data"))

        stock_updated_event_v2 = cls(
            event=event,
            id=id,
            api_version=api_version,
            created_at=created_at,
            data=data,
        )

        return stock_updated_event_v2
