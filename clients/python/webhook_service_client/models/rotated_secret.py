from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.signature_scheme import SignatureScheme

T = TypeVar("T", bound="RotatedSecret")


@_attrs_define
class RotatedSecret:
    """Result of a secret rotation.

    Attributes:
        secret (str): What a receiver verifies deliveries with - the HMAC signing secret (`whsec_`), or for an `ed25519`
            subscription its public key (`whpk_`). The receiver kit's `verify` takes either.
        signature (SignatureScheme): How deliveries are signed (`GET /api/webhooks/v1/event-types` lists both under
            `signature_schemes`).
            - `hmac-sha256` (default): a shared secret (`whsec_`); `webhook-signature: v1,<base64>` and `X-Signature`.
            - `ed25519`: Standard Webhooks asymmetric signatures; `webhook-signature: v1a,<base64>`, verified with the
            subscription's public key (`whpk_`). The private key is generated and kept (sealed) by the service and never
            returned.
        previous_secret_expires_at (datetime.datetime): Until this time the previous secret also signs each delivery
            (second signature).
    """

    secret: str
    signature: SignatureScheme
    previous_secret_expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        secret = self.secret

        signature = self.signature.value

        previous_secret_expires_at = self.previous_secret_expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "secret": secret,
                "signature": signature,
                "previous_secret_expires_at": previous_secret_expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        secret = d.pop("secret")

        signature = SignatureScheme(d.pop("signature"))

        previous_secret_expires_at = datetime.datetime.fromisoformat(
            d.pop("previous_secret_expires_at")
        )

        rotated_secret = cls(
            secret=secret,
            signature=signature,
            previous_secret_expires_at=previous_secret_expires_at,
        )

        rotated_secret.additional_properties = d
        return rotated_secret

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
