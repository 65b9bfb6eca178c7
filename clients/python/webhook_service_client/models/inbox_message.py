from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.inbox_message_headers import InboxMessageHeaders


T = TypeVar("T", bound="InboxMessage")


@_attrs_define
class InboxMessage:
    """One attempt's message, as an HTTP receiver would get it.

    Attributes:
        id (str): An inbox message's id (one per attempt).
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        attempt (int): The attempt's number.
        body (str): The signed envelope, byte for byte what an HTTP receiver gets; verify it as is.
        headers (InboxMessageHeaders): The signature headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`,
            `X-Signature`) and `Content-Type`. Never the subscription's custom headers, whose values are sealed credentials
            (the consumer authenticates with its own key).
        created_at (datetime.datetime): When the attempt put it in the inbox.
        ack_by (datetime.datetime): Its outcome is due by then; after it the attempt is a `timeout`.
    """

    id: str
    event_id: str
    attempt: int
    body: str
    headers: InboxMessageHeaders
    created_at: datetime.datetime
    ack_by: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event_id = self.event_id

        attempt = self.attempt

        body = self.body

        headers = self.headers.to_dict()

        created_at = self.created_at.isoformat()

        ack_by = self.ack_by.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "event_id": event_id,
                "attempt": attempt,
                "body": body,
                "headers": headers,
                "created_at": created_at,
                "ack_by": ack_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.inbox_message_headers import InboxMessageHeaders

        d = dict(src_dict)
        id = d.pop("id")

        event_id = d.pop("event_id")

        attempt = d.pop("attempt")

        body = d.pop("body")

        headers = InboxMessageHeaders.from_dict(d.pop("headers"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        ack_by = datetime.datetime.fromisoformat(d.pop("ack_by"))

        inbox_message = cls(
            id=id,
            event_id=event_id,
            attempt=attempt,
            body=body,
            headers=headers,
            created_at=created_at,
            ack_by=ack_by,
        )

        inbox_message.additional_properties = d
        return inbox_message

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
