from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StockLowEventData")


@_attrs_define
class StockLowEventData:
    """Payload of `stock.low`. Receivers must ignore fields they do not know.

    Attributes:
        product_id (int): The product concerned.
        sku (str): Its stock keeping unit.
        previous_quantity (int): Units in stock before the change (above the threshold).
        quantity (int): Units in stock after the change (at or below the threshold).
        low_stock_threshold (int): `stock.low` is emitted when the level falls to or below this many units (from above
            it). 5 unless set.
        url (str): Absolute URL of the event's resource in this API; its origin is the server's `PUBLIC_URL`. A `GET`
            with an API key of the subscription's owner (scope `resources:read`; `webhooks:read` for a subscription) returns
            the resource as it is now, in full.
    """

    product_id: int
    sku: str
    previous_quantity: int
    quantity: int
    low_stock_threshold: int
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        product_id = self.product_id

        sku = self.sku

        previous_quantity = self.previous_quantity

        quantity = self.quantity

        low_stock_threshold = self.low_stock_threshold

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "product_id": product_id,
                "sku": sku,
                "previous_quantity": previous_quantity,
                "quantity": quantity,
                "low_stock_threshold": low_stock_threshold,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        product_id = d.pop("product_id")

        sku = d.pop("sku")

        previous_quantity = d.pop("previous_quantity")

        quantity = d.pop("quantity")

        low_stock_threshold = d.pop("low_stock_threshold")

        url = d.pop("url")

        stock_low_event_data = cls(
            product_id=product_id,
            sku=sku,
            previous_quantity=previous_quantity,
            quantity=quantity,
            low_stock_threshold=low_stock_threshold,
            url=url,
        )

        stock_low_event_data.additional_properties = d
        return stock_low_event_data

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
