from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.o_auth_2_client_credentials_auth_type import (
    OAuth2ClientCredentialsAuthType,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="OAuth2ClientCredentialsAuth")


@_attrs_define
class OAuth2ClientCredentialsAuth:
    """OAuth 2.0 client credentials grant (RFC 6749 §4.4); the worker fetches and caches the access token.

    Example:
        {'type': 'oauth2_client_credentials', 'token_url': 'https://auth.example.com/oauth2/token', 'client_id':
            'webhooks-acme', 'client_secret': 'cs_live_0123456789abcdef', 'scope': 'webhooks.write'}

    Attributes:
        type_ (OAuth2ClientCredentialsAuthType): OAuth 2.0 client credentials.
        token_url (str): Absolute http or https URL, with a host, that the deliveries are POSTed to (HTTPS recommended).
            Unless the operator allows private callbacks, its port must be 80, 443 or from 1024 to 65535, and not one of the
            well-known service ports 1080, 2375, 2376, 2379, 2380, 3306, 5432, 5672, 6379, 6443, 7233, 8500, 9042, 9092,
            9200, 9300, 10250, 11211 and 27017 (refused naming the field, and blocked at connect time).
        client_id (str): The client identifier (printable ASCII); shown on read.
        client_secret (str): The client secret (printable ASCII); sealed at rest, never returned.
        scope (str | Unset): Space-separated scopes to ask for (RFC 6749 §3.3); absent, none are asked for.
    """

    type_: OAuth2ClientCredentialsAuthType
    token_url: str
    client_id: str
    client_secret: str
    scope: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        token_url = self.token_url

        client_id = self.client_id

        client_secret = self.client_secret

        scope = self.scope

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "token_url": token_url,
                "client_id": client_id,
                "client_secret": client_secret,
            }
        )
        if scope is not UNSET:
            field_dict["scope"] = scope

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = OAuth2ClientCredentialsAuthType(d.pop("type"))

        token_url = d.pop("token_url")

        client_id = d.pop("client_id")

        client_secret = d.pop("client_secret")

        scope = d.pop("scope", UNSET)

        o_auth_2_client_credentials_auth = cls(
            type_=type_,
            token_url=token_url,
            client_id=client_id,
            client_secret=client_secret,
            scope=scope,
        )

        return o_auth_2_client_credentials_auth
