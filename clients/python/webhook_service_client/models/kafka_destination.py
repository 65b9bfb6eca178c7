from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.kafka_destination_sasl_mechanism import KafkaDestinationSaslMechanism
from ..models.kafka_destination_type import KafkaDestinationType
from ..types import UNSET, Unset

T = TypeVar("T", bound="KafkaDestination")


@_attrs_define
class KafkaDestination:
    """An Apache Kafka topic on the cluster whose bootstrap broker is `url`; see `SubscriptionDestination`. `username` and
    `password` come together (422 naming the one missing), or neither for a cluster without SASL.

        Example:
            {'type': 'kafka', 'topic': 'orders', 'brokers': ['kafka-2.example.com:9093'], 'sasl_mechanism': 'scram-sha-512',
                'username': 'hooks', 'password': 'correct-horse-battery-staple'}

        Attributes:
            type_ (KafkaDestinationType): Apache Kafka.
            topic (str): The topic produced to; it must exist (the service never creates one).
            brokers (list[str] | Unset): Further bootstrap brokers beside the one in `url`, each `host:port`, under the same
                address rules.
            sasl_mechanism (KafkaDestinationSaslMechanism | Unset): How `username` and `password` authenticate (SASL); only
                with them. Default: KafkaDestinationSaslMechanism.PLAIN.
            username (str | Unset): The SASL user; sealed at rest, never returned.
            password (str | Unset): The SASL password; sealed at rest, never returned.
    """

    type_: KafkaDestinationType
    topic: str
    brokers: list[str] | Unset = UNSET
    sasl_mechanism: KafkaDestinationSaslMechanism | Unset = (
        KafkaDestinationSaslMechanism.PLAIN
    )
    username: str | Unset = UNSET
    password: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        topic = self.topic

        brokers: list[str] | Unset = UNSET
        if not isinstance(self.brokers, Unset):
            brokers = self.brokers

        sasl_mechanism: str | Unset = UNSET
        if not isinstance(self.sasl_mechanism, Unset):
            sasl_mechanism = self.sasl_mechanism.value

        username = self.username

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "topic": topic,
            }
        )
        if brokers is not UNSET:
            field_dict["brokers"] = brokers
        if sasl_mechanism is not UNSET:
            field_dict["sasl_mechanism"] = sasl_mechanism
        if username is not UNSET:
            field_dict["username"] = username
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = KafkaDestinationType(d.pop("type"))

        topic = d.pop("topic")

        brokers = cast(list[str], d.pop("brokers", UNSET))

        _sasl_mechanism = d.pop("sasl_mechanism", UNSET)
        sasl_mechanism: KafkaDestinationSaslMechanism | Unset
        if isinstance(_sasl_mechanism, Unset):
            sasl_mechanism = UNSET
        else:
            sasl_mechanism = KafkaDestinationSaslMechanism(_sasl_mechanism)

        username = d.pop("username", UNSET)

        password = d.pop("password", UNSET)

        kafka_destination = cls(
            type_=type_,
            topic=topic,
            brokers=brokers,
            sasl_mechanism=sasl_mechanism,
            username=username,
            password=password,
        )

        return kafka_destination
