from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="InboxOutcome")


@_attrs_define
class InboxOutcome:
    """The consumer's answer to a message.

    Attributes:
        status_code (int): The status the consumer answered with (the CLI, the local receiver's).
        response_excerpt (str | Unset): The start of its answer, for the attempt log (no NUL, which cannot be stored;
            send U+FFFD in its place).
        duration_ms (int | Unset): How long it took, for the attempt log.
    """

    status_code: int
    response_excerpt: str | Unset = UNSET
    duration_ms: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status_code = self.status_code

        response_excerpt = self.response_excerpt

        duration_ms = self.duration_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status_code": status_code,
            }
        )
        if response_excerpt is not UNSET:
            field_dict["response_excerpt"] = response_excerpt
        if duration_ms is not UNSET:
            field_dict["duration_ms"] = duration_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status_code = d.pop("status_code")

        response_excerpt = d.pop("response_excerpt", UNSET)

        duration_ms = d.pop("duration_ms", UNSET)

        inbox_outcome = cls(
            status_code=status_code,
            response_excerpt=response_excerpt,
            duration_ms=duration_ms,
        )

        return inbox_outcome
