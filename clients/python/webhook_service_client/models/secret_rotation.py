from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.signature_scheme import SignatureScheme
from ..types import UNSET, Unset

T = TypeVar("T", bound="SecretRotation")


@_attrs_define
class SecretRotation:
    """Options for a secret rotation.

    Attributes:
        expire_previous_in_seconds (int | Unset): How long the previous secret keeps signing, in seconds (0 to 7 days;
            default 1 day). Default: 86400.
        signature (SignatureScheme | Unset): How deliveries are signed (`GET /api/webhooks/v1/event-types` lists both
            under `signature_schemes`).
            - `hmac-sha256` (default): a shared secret (`whsec_`); `webhook-signature: v1,<base64>` and `X-Signature`.
            - `ed25519`: Standard Webhooks asymmetric signatures; `webhook-signature: v1a,<base64>`, verified with the
            subscription's public key (`whpk_`). The private key is generated and kept (sealed) by the service and never
            returned.
    """

    expire_previous_in_seconds: int | Unset = 86400
    signature: SignatureScheme | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expire_previous_in_seconds = self.expire_previous_in_seconds

        signature: str | Unset = UNSET
        if not isinstance(self.signature, Unset):
            signature = self.signature.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expire_previous_in_seconds is not UNSET:
            field_dict["expire_previous_in_seconds"] = expire_previous_in_seconds
        if signature is not UNSET:
            field_dict["signature"] = signature

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expire_previous_in_seconds = d.pop("expire_previous_in_seconds", UNSET)

        _signature = d.pop("signature", UNSET)
        signature: SignatureScheme | Unset
        if isinstance(_signature, Unset):
            signature = UNSET
        else:
            signature = SignatureScheme(_signature)

        secret_rotation = cls(
            expire_previous_in_seconds=expire_previous_in_seconds,
            signature=signature,
        )

        return secret_rotation
