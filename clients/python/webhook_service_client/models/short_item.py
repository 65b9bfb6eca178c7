from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ShortItem")


@_attrs_define
class ShortItem:
    """A product with fewer units in stock than asked for.

    Attributes:
        product_id (int): Catalog product identifier.
        requested (int): Units asked for (an order's lines of one product added up).
        available (int): Units in stock when the request was refused.
    """

    product_id: int
    requested: int
    available: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        product_id = self.product_id

        requested = self.requested

        available = self.available

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "product_id": product_id,
                "requested": requested,
                "available": available,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        product_id = d.pop("product_id")

        requested = d.pop("requested")

        available = d.pop("available")

        short_item = cls(
            product_id=product_id,
            requested=requested,
            available=available,
        )

        short_item.additional_properties = d
        return short_item

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
