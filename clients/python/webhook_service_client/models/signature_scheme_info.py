from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.signature_scheme import SignatureScheme
from ..models.signature_scheme_info_signature_version import (
    SignatureSchemeInfoSignatureVersion,
)

T = TypeVar("T", bound="SignatureSchemeInfo")


@_attrs_define
class SignatureSchemeInfo:
    """One way deliveries can be signed.

    Attributes:
        name (SignatureScheme): How deliveries are signed (`GET /api/webhooks/v1/event-types` lists both under
            `signature_schemes`).
            - `hmac-sha256` (default): a shared secret (`whsec_`); `webhook-signature: v1,<base64>` and `X-Signature`.
            - `ed25519`: Standard Webhooks asymmetric signatures; `webhook-signature: v1a,<base64>`, verified with the
            subscription's public key (`whpk_`). The private key is generated and kept (sealed) by the service and never
            returned.
        default (bool): Whether a subscription created without `signature` uses it.
        signature_version (SignatureSchemeInfoSignatureVersion): The Standard Webhooks version prefix of its `webhook-
            signature` entries.
        description (str): What a delivery carries.
        verify_with (str): What a receiver verifies with.
    """

    name: SignatureScheme
    default: bool
    signature_version: SignatureSchemeInfoSignatureVersion
    description: str
    verify_with: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name.value

        default = self.default

        signature_version = self.signature_version.value

        description = self.description

        verify_with = self.verify_with

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "default": default,
                "signature_version": signature_version,
                "description": description,
                "verify_with": verify_with,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = SignatureScheme(d.pop("name"))

        default = d.pop("default")

        signature_version = SignatureSchemeInfoSignatureVersion(
            d.pop("signature_version")
        )

        description = d.pop("description")

        verify_with = d.pop("verify_with")

        signature_scheme_info = cls(
            name=name,
            default=default,
            signature_version=signature_version,
            description=description,
            verify_with=verify_with,
        )

        signature_scheme_info.additional_properties = d
        return signature_scheme_info

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
