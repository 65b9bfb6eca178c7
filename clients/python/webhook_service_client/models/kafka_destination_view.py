from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kafka_destination_view_password import KafkaDestinationViewPassword
from ..models.kafka_destination_view_sasl_mechanism import (
    KafkaDestinationViewSaslMechanism,
)
from ..models.kafka_destination_view_type import KafkaDestinationViewType
from ..models.kafka_destination_view_username import KafkaDestinationViewUsername
from ..types import UNSET, Unset

T = TypeVar("T", bound="KafkaDestinationView")


@_attrs_define
class KafkaDestinationView:
    """A Kafka destination as shown on read; the credentials, when set, are masked.

    Example:
        {'type': 'kafka', 'topic': 'orders', 'sasl_mechanism': 'scram-sha-512', 'username': '********', 'password':
            '********'}

    Attributes:
        type_ (KafkaDestinationViewType): The kind of destination.
        topic (str): The topic produced to.
        brokers (list[str] | Unset): Further bootstrap brokers, when set.
        sasl_mechanism (KafkaDestinationViewSaslMechanism | Unset): The SASL mechanism, when credentials are set.
        username (KafkaDestinationViewUsername | Unset): Set, and masked; absent without SASL.
        password (KafkaDestinationViewPassword | Unset): Set, and masked; absent without SASL.
    """

    type_: KafkaDestinationViewType
    topic: str
    brokers: list[str] | Unset = UNSET
    sasl_mechanism: KafkaDestinationViewSaslMechanism | Unset = UNSET
    username: KafkaDestinationViewUsername | Unset = UNSET
    password: KafkaDestinationViewPassword | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        topic = self.topic

        brokers: list[str] | Unset = UNSET
        if not isinstance(self.brokers, Unset):
            brokers = self.brokers

        sasl_mechanism: str | Unset = UNSET
        if not isinstance(self.sasl_mechanism, Unset):
            sasl_mechanism = self.sasl_mechanism.value

        username: str | Unset = UNSET
        if not isinstance(self.username, Unset):
            username = self.username.value

        password: str | Unset = UNSET
        if not isinstance(self.password, Unset):
            password = self.password.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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
        type_ = KafkaDestinationViewType(d.pop("type"))

        topic = d.pop("topic")

        brokers = cast(list[str], d.pop("brokers", UNSET))

        _sasl_mechanism = d.pop("sasl_mechanism", UNSET)
        sasl_mechanism: KafkaDestinationViewSaslMechanism | Unset
        if isinstance(_sasl_mechanism, Unset):
            sasl_mechanism = UNSET
        else:
            sasl_mechanism = KafkaDestinationViewSaslMechanism(_sasl_mechanism)

        _username = d.pop("username", UNSET)
        username: KafkaDestinationViewUsername | Unset
        if isinstance(_username, Unset):
            username = UNSET
        else:
            username = KafkaDestinationViewUsername(_username)

        _password = d.pop("password", UNSET)
        password: KafkaDestinationViewPassword | Unset
        if isinstance(_password, Unset):
            password = UNSET
        else:
            password = KafkaDestinationViewPassword(_password)

        kafka_destination_view = cls(
            type_=type_,
            topic=topic,
            brokers=brokers,
            sasl_mechanism=sasl_mechanism,
            username=username,
            password=password,
        )

        kafka_destination_view.additional_properties = d
        return kafka_destination_view

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
