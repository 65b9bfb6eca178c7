from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type import EventType
from ..models.event_type_info_required_scopes_item import (
    EventTypeInfoRequiredScopesItem,
)

if TYPE_CHECKING:
    from ..models.event_type_info_schema import EventTypeInfoSchema


T = TypeVar("T", bound="EventTypeInfo")


@_attrs_define
class EventTypeInfo:
    """One entry of the event catalogue.

    Attributes:
        ordering_key (str): The ordering key of events of this type, as a pattern over its `data`: `order:<order_id>`,
            `product:<product_id>` or `subscription:<subscription_id>`. A subscription with `ordering` `per_key` gets the
            events of one key in emission order; brokers that partition by key (Kafka, SQS FIFO) use it too.
        name (EventType): Event type name, of the form `<resource>.<action>`.
        description (str): When the event is emitted.
        required_scopes (list[EventTypeInfoRequiredScopesItem]): Scopes a key needs, besides `webhooks:write`, to
            subscribe to this type (its data must not reach a key that could not read it through the API); `admin` satisfies
            every scope.
        schema (EventTypeInfoSchema): JSON Schema of the event's `data` payload.
    """

    ordering_key: str
    name: EventType
    description: str
    required_scopes: list[EventTypeInfoRequiredScopesItem]
    schema: EventTypeInfoSchema
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ordering_key = self.ordering_key

        name = self.name.value

        description = self.description

        required_scopes = []
        for required_scopes_item_data in self.required_scopes:
            required_scopes_item = required_scopes_item_data.value
            required_scopes.append(required_scopes_item)

        schema = self.schema.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ordering_key": ordering_key,
                "name": name,
                "description": description,
                "required_scopes": required_scopes,
                "schema": schema,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_type_info_schema import EventTypeInfoSchema

        d = dict(src_dict)
        ordering_key = d.pop("ordering_key")

        name = EventType(d.pop("name"))

        description = d.pop("description")

        required_scopes = []
        _required_scopes = d.pop("required_scopes")
        for required_scopes_item_data in _required_scopes:
            required_scopes_item = EventTypeInfoRequiredScopesItem(
                required_scopes_item_data
            )

            required_scopes.append(required_scopes_item)

        schema = EventTypeInfoSchema.from_dict(d.pop("schema"))

        event_type_info = cls(
            ordering_key=ordering_key,
            name=name,
            description=description,
            required_scopes=required_scopes,
            schema=schema,
        )

        event_type_info.additional_properties = d
        return event_type_info

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
