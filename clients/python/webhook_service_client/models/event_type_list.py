from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event_type_info import EventTypeInfo
    from ..models.signature_scheme_info import SignatureSchemeInfo


T = TypeVar("T", bound="EventTypeList")


@_attrs_define
class EventTypeList:
    """The event catalogue, and how deliveries can be signed.

    Attributes:
        data (list[EventTypeInfo]): Every event type.
        signature_schemes (list[SignatureSchemeInfo]): The signature schemes a subscription may choose (`signature`),
            read from this contract (`x-signature-schemes`).
    """

    data: list[EventTypeInfo]
    signature_schemes: list[SignatureSchemeInfo]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        signature_schemes = []
        for signature_schemes_item_data in self.signature_schemes:
            signature_schemes_item = signature_schemes_item_data.to_dict()
            signature_schemes.append(signature_schemes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "signature_schemes": signature_schemes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_type_info import EventTypeInfo
        from ..models.signature_scheme_info import SignatureSchemeInfo

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = EventTypeInfo.from_dict(data_item_data)

            data.append(data_item)

        signature_schemes = []
        _signature_schemes = d.pop("signature_schemes")
        for signature_schemes_item_data in _signature_schemes:
            signature_schemes_item = SignatureSchemeInfo.from_dict(
                signature_schemes_item_data
            )

            signature_schemes.append(signature_schemes_item)

        event_type_list = cls(
            data=data,
            signature_schemes=signature_schemes,
        )

        event_type_list.additional_properties = d
        return event_type_list

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
