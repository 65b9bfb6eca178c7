from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.problem_errors_item import ProblemErrorsItem
    from ..models.short_item import ShortItem


T = TypeVar("T", bound="InsufficientStockProblem")


@_attrs_define
class InsufficientStockProblem:
    """A problem document; for a stock shortfall it names each short product in `short_items` (and `errors` points at the
    request fields).

        Attributes:
            type_ (str): URI reference identifying the problem type; `about:blank` when there is nothing more specific.
            title (str): Short, human-readable summary of the problem type.
            status (int): The HTTP status code of this response.
            detail (str | Unset): Human-readable explanation of this occurrence.
            instance (str | Unset): URI reference of this occurrence, typically the request path.
            errors (list[ProblemErrorsItem] | Unset): The offending fields, when the problem concerns the request's content.
            short_items (list[ShortItem] | Unset): Each product with too few units, with the units available.
    """

    type_: str
    title: str
    status: int
    detail: str | Unset = UNSET
    instance: str | Unset = UNSET
    errors: list[ProblemErrorsItem] | Unset = UNSET
    short_items: list[ShortItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        status = self.status

        detail = self.detail

        instance = self.instance

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)

        short_items: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.short_items, Unset):
            short_items = []
            for short_items_item_data in self.short_items:
                short_items_item = short_items_item_data.to_dict()
                short_items.append(short_items_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
            }
        )
        if detail is not UNSET:
            field_dict["detail"] = detail
        if instance is not UNSET:
            field_dict["instance"] = instance
        if errors is not UNSET:
            field_dict["errors"] = errors
        if short_items is not UNSET:
            field_dict["short_items"] = short_items

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.problem_errors_item import ProblemErrorsItem
        from ..models.short_item import ShortItem

        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail", UNSET)

        instance = d.pop("instance", UNSET)

        _errors = d.pop("errors", UNSET)
        errors: list[ProblemErrorsItem] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = ProblemErrorsItem.from_dict(errors_item_data)

                errors.append(errors_item)

        _short_items = d.pop("short_items", UNSET)
        short_items: list[ShortItem] | Unset = UNSET
        if _short_items is not UNSET:
            short_items = []
            for short_items_item_data in _short_items:
                short_items_item = ShortItem.from_dict(short_items_item_data)

                short_items.append(short_items_item)

        insufficient_stock_problem = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            instance=instance,
            errors=errors,
            short_items=short_items,
        )

        insufficient_stock_problem.additional_properties = d
        return insufficient_stock_problem

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
