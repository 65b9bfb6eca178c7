from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.rabbitmq_destination_type import RabbitmqDestinationType

T = TypeVar("T", bound="RabbitmqDestination")


@_attrs_define
class RabbitmqDestination:
    """A RabbitMQ (AMQP 0-9-1) exchange on the broker at `url`; see `SubscriptionDestination`.

    Example:
        {'type': 'rabbitmq', 'exchange': 'webhooks', 'routing_key': 'orders.created', 'username': 'hooks', 'password':
            'correct-horse-battery-staple'}

    Attributes:
        type_ (RabbitmqDestinationType): RabbitMQ.
        exchange (str): The exchange published to; it must exist on the broker (the service never declares one). Empty
            is the default exchange, which routes by queue name.
        routing_key (str): The routing key of every message (printable ASCII).
        username (str): The broker user; sealed at rest, never returned.
        password (str): The broker password; sealed at rest, never returned.
    """

    type_: RabbitmqDestinationType
    exchange: str
    routing_key: str
    username: str
    password: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        exchange = self.exchange

        routing_key = self.routing_key

        username = self.username

        password = self.password

        field_dict: dict[str, Any] = {}

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
        type_ = RabbitmqDestinationType(d.pop("type"))

        exchange = d.pop("exchange")

        routing_key = d.pop("routing_key")

        username = d.pop("username")

        password = d.pop("password")

        rabbitmq_destination = cls(
            type_=type_,
            exchange=exchange,
            routing_key=routing_key,
            username=username,
            password=password,
        )

        return rabbitmq_destination
