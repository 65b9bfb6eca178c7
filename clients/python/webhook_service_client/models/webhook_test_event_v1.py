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
    from ..models.test_event_data import TestEventData


T = TypeVar("T", bound="WebhookTestEventV1")


@_attrs_define
class WebhookTestEventV1:
    """v1 envelope of `webhook.test`.

    Attributes:
        event (Literal['webhook.test']): Event type name.
        id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        data (TestEventData): Payload of `webhook.test`. Receivers must ignore fields they do not know.
    """

    event: Literal["webhook.test"]
    id: str
    data: TestEventData

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
        from ..models.test_event_data import TestEventData

        d = dict(src_dict)
        event = cast(Literal["webhook.test"], d.pop("event"))
        if event != "webhook.test":
            raise ValueError(f"event must match const 'webhook.test', got '{event}'")

        id = d.pop("id")

        data = TestEventData.from_dict(d.pop("data"))

        webhook_test_event_v1 = cls(
            event=event,
            id=id,
            data=data,
        )

        return webhook_test_event_v1
