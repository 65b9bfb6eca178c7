from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Product")


@_attrs_define
class Product:
    """A catalog product.

    Attributes:
        id (int): Product identifier.
        sku (str): Stock keeping unit.
        name (str): Product name.
        category (str): Category identifier.
        price (float): Unit price, a decimal amount in currency units.
        currency (str): ISO 4217 currency code.
    """

    id: int
    sku: str
    name: str
    category: str
    price: float
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        sku = self.sku

        name = self.name

        category = self.category

        price = self.price

        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "sku": sku,
                "name": name,
                "category": category,
                "price": price,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        sku = d.pop("sku")

        name = d.pop("name")

        category = d.pop("category")

        price = d.pop("price")

        currency = d.pop("currency")

        product = cls(
            id=id,
            sku=sku,
            name=name,
            category=category,
            price=price,
            currency=currency,
        )

        product.additional_properties = d
        return product

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
