from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dependency_state import DependencyState
from ..models.readiness_checks_admission import ReadinessChecksAdmission
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReadinessChecks")


@_attrs_define
class ReadinessChecks:
    """State of each dependency.

    Attributes:
        mongodb (DependencyState): Whether a dependency is reachable.
        temporal (DependencyState): Whether a dependency is reachable.
        admission (ReadinessChecksAdmission | Unset): `saturated` when every place in flight (`API_MAX_IN_FLIGHT`) has
            stayed taken for a second or more: this process cannot serve more requests now. Absent when the process does not
            bound its requests.
    """

    mongodb: DependencyState
    temporal: DependencyState
    admission: ReadinessChecksAdmission | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mongodb = self.mongodb.value

        temporal = self.temporal.value

        admission: str | Unset = UNSET
        if not isinstance(self.admission, Unset):
            admission = self.admission.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mongodb": mongodb,
                "temporal": temporal,
            }
        )
        if admission is not UNSET:
            field_dict["admission"] = admission

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        mongodb = DependencyState(d.pop("mongodb"))

        temporal = DependencyState(d.pop("temporal"))

        _admission = d.pop("admission", UNSET)
        admission: ReadinessChecksAdmission | Unset
        if isinstance(_admission, Unset):
            admission = UNSET
        else:
            admission = ReadinessChecksAdmission(_admission)

        readiness_checks = cls(
            mongodb=mongodb,
            temporal=temporal,
            admission=admission,
        )

        readiness_checks.additional_properties = d
        return readiness_checks

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
