from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sqs_destination_view_access_key_id import SqsDestinationViewAccessKeyId
from ..models.sqs_destination_view_secret_access_key import (
    SqsDestinationViewSecretAccessKey,
)
from ..models.sqs_destination_view_type import SqsDestinationViewType

T = TypeVar("T", bound="SqsDestinationView")


@_attrs_define
class SqsDestinationView:
    """An SQS destination as shown on read; the credentials are masked.

    Example:
        {'type': 'sqs', 'region': 'eu-west-1', 'access_key_id': '********', 'secret_access_key': '********'}

    Attributes:
        type_ (SqsDestinationViewType): The kind of destination.
        region (str): The queue's region.
        access_key_id (SqsDestinationViewAccessKeyId): Set, and masked.
        secret_access_key (SqsDestinationViewSecretAccessKey): Set, and masked.
    """

    type_: SqsDestinationViewType
    region: str
    access_key_id: SqsDestinationViewAccessKeyId
    secret_access_key: SqsDestinationViewSecretAccessKey
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        region = self.region

        access_key_id = self.access_key_id.value

        secret_access_key = self.secret_access_key.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "region": region,
                "access_key_id": access_key_id,
                "secret_access_key": secret_access_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = SqsDestinationViewType(d.pop("type"))

        region = d.pop("region")

        access_key_id = SqsDestinationViewAccessKeyId(d.pop("access_key_id"))

        secret_access_key = SqsDestinationViewSecretAccessKey(
            d.pop("secret_access_key")
        )

        sqs_destination_view = cls(
            type_=type_,
            region=region,
            access_key_id=access_key_id,
            secret_access_key=secret_access_key,
        )

        sqs_destination_view.additional_properties = d
        return sqs_destination_view

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
