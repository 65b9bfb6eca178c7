from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SubscriptionFilter")


@_attrs_define
class SubscriptionFilter:
    """Which events the subscription receives, matched against the event's canonical form
    `{"type", "id", "data"}` (the same for every envelope version). Keys are field names or
    dotted paths (`data.customer.tier`), or `$and`/`$or` (arrays of filters) and `$not` (a
    filter). A value is a literal (equality), a nested filter, or an object of operators:
    `$eq`, `$neq`, `$gt`, `$gte`, `$lt`, `$lte` (numbers or strings), `$in`, `$nin` (lists of
    scalars), `$exists` (boolean), `$startsWith` (string), `$not` (operators). Where the field
    holds an array, a literal or operator holds when any element does. An event the filter
    does not match makes no attempt for this subscription and is not in its event list. At
    most 4096 bytes and 8 levels deep; an unknown operator or a bad operand is a 422 naming
    its path.

        Example:
            {'data': {'total': {'$gte': 100}, 'currency': {'$in': ['EUR', 'USD']}}}

    """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subscription_filter = cls()

        subscription_filter.additional_properties = d
        return subscription_filter

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
