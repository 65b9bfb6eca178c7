from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.inbox_message import InboxMessage


T = TypeVar("T", bound="InboxPage")


@_attrs_define
class InboxPage:
    """Messages waiting for their outcome and not yet due, oldest first; the same message may come again until its outcome
    is stored.

        Attributes:
            data (list[InboxMessage]): The messages.
            next_cursor (str): Names this page; pass as `cursor` with `wait` to wait until the page differs. Opaque; not a
                position.
    """

    data: list[InboxMessage]
    next_cursor: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.inbox_message import InboxMessage

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = InboxMessage.from_dict(data_item_data)

            data.append(data_item)

        next_cursor = d.pop("next_cursor")

        inbox_page = cls(
            data=data,
            next_cursor=next_cursor,
        )

        inbox_page.additional_properties = d
        return inbox_page

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
