from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.sqs_destination_type import SqsDestinationType

T = TypeVar("T", bound="SqsDestination")


@_attrs_define
class SqsDestination:
    """An Amazon SQS queue, or an SQS-compatible server's, whose queue URL is `url`; see `SubscriptionDestination`. The
    credentials are always sent (an IAM user's access key allowed `sqs:SendMessage` on the queue); the service never
    uses credentials of its own.

        Example:
            {'type': 'sqs', 'region': 'eu-west-1', 'access_key_id': 'AKIAIOSFODNN7EXAMPLE', 'secret_access_key':
                'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'}

        Attributes:
            type_ (SqsDestinationType): Amazon SQS.
            region (str): The queue's region, which requests are signed for. For a queue URL on `sqs.<region>.amazonaws.com`
                (or `<region>.queue.amazonaws.com`) it must be that region (422 naming the field).
            access_key_id (str): The access key id; sealed at rest, never returned.
            secret_access_key (str): The secret access key; sealed at rest, never returned.
    """

    type_: SqsDestinationType
    region: str
    access_key_id: str
    secret_access_key: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        region = self.region

        access_key_id = self.access_key_id

        secret_access_key = self.secret_access_key

        field_dict: dict[str, Any] = {}

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
        type_ = SqsDestinationType(d.pop("type"))

        region = d.pop("region")

        access_key_id = d.pop("access_key_id")

        secret_access_key = d.pop("secret_access_key")

        sqs_destination = cls(
            type_=type_,
            region=region,
            access_key_id=access_key_id,
            secret_access_key=secret_access_key,
        )

        return sqs_destination
