from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rabbitmq_destination_view_password import RabbitmqDestinationViewPassword
from ..models.rabbitmq_destination_view_type import RabbitmqDestinationViewType
from ..models.rabbitmq_destination_view_username import RabbitmqDestinationViewUsername

T = TypeVar("T", bound="RabbitmqDestinationView")


@_attrs_define
class RabbitmqDestinationView:
    """A broker destination as shown on read; the credentials are masked.

    Example:
        {'type': 'rabbitmq', 'exchange': 'webhooks', 'routing_key': 'orders.created', 'username': '********',
            'password': '********'}

    Attributes:
        type_ (RabbitmqDestinationViewType): The kind of destination.
        exchange (str): The exchange published to.
        routing_key (str): The routing key.
        username (RabbitmqDestinationViewUsername): Set, and masked.
        password (RabbitmqDestinationViewPassword): Set, and masked.
    """

    type_: RabbitmqDestinationViewType
    exchange: str
    routing_key: str
    username: RabbitmqDestinationViewUsername
    password: RabbitmqDestinationViewPassword
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        exchange = self.exchange

        routing_key = self.routing_key

        username = self.username.value

        password = self.password.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "exchange": exchange,
                "routing_key": routing_key,
                "username": username,
                "password": password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = RabbitmqDestinationViewType(d.pop("type"))

        exchange = d.pop("exchange")

        routing_key = d.pop("routing_key")

        username = RabbitmqDestinationViewUsername(d.pop("username"))

        password = RabbitmqDestinationViewPassword(d.pop("password"))

        rabbitmq_destination_view = cls(
            type_=type_,
            exchange=exchange,
            routing_key=routing_key,
            username=username,
            password=password,
        )

        rabbitmq_destination_view.additional_properties = d
        return rabbitmq_destination_view

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
