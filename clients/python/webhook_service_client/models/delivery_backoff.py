from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeliveryBackoff")


@_attrs_define
class DeliveryBackoff:
    """Wait n of m of a retry schedule.

    Attributes:
        wait (int): Which wait (after attempt n).
        of (int): Waits in all (attempts in all, less one); 0 when unknown (attempts logged before it was recorded).
    """

    wait: int
    of: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        wait = self.wait

        of = self.of

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "wait": wait,
                "of": of,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        wait = d.pop("wait")

        of = d.pop("of")

        delivery_backoff = cls(
            wait=wait,
            of=of,
        )

        delivery_backoff.additional_properties = d
        return delivery_backoff

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
