from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.subscription_auth_view_type import SubscriptionAuthViewType
from ..types import UNSET, Unset

T = TypeVar("T", bound="SubscriptionAuthView")


@_attrs_define
class SubscriptionAuthView:
    """How deliveries authenticate, as shown on read. Tokens, user names, passwords and client secrets are never returned;
    for `oauth2_client_credentials` the token URL (its query masked), client id and scope are.

        Example:
            {'type': 'oauth2_client_credentials', 'token_url': 'https://auth.example.com/oauth2/token', 'client_id':
                'webhooks-acme', 'scope': 'webhooks.write'}

        Attributes:
            type_ (SubscriptionAuthViewType): The kind of authentication set.
            token_url (str | Unset): Absolute http or https URL, with a host, that the deliveries are POSTed to (HTTPS
                recommended). Unless the operator allows private callbacks, its port must be 80, 443 or from 1024 to 65535, and
                not one of the well-known service ports 1080, 2375, 2376, 2379, 2380, 3306, 5432, 5672, 6379, 6443, 7233, 8500,
                9042, 9092, 9200, 9300, 10250, 11211 and 27017 (refused naming the field, and blocked at connect time).
            client_id (str | Unset): The client identifier (`oauth2_client_credentials` only).
            scope (str | Unset): The scopes asked for (`oauth2_client_credentials` only, when set).
    """

    type_: SubscriptionAuthViewType
    token_url: str | Unset = UNSET
    client_id: str | Unset = UNSET
    scope: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        token_url = self.token_url

        client_id = self.client_id

        scope = self.scope

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if token_url is not UNSET:
            field_dict["token_url"] = token_url
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if scope is not UNSET:
            field_dict["scope"] = scope

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = SubscriptionAuthViewType(d.pop("type"))

        token_url = d.pop("token_url", UNSET)

        client_id = d.pop("client_id", UNSET)

        scope = d.pop("scope", UNSET)

        subscription_auth_view = cls(
            type_=type_,
            token_url=token_url,
            client_id=client_id,
            scope=scope,
        )

        subscription_auth_view.additional_properties = d
        return subscription_auth_view

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
