"""The one exception API calls raise: the service's RFC 9457 problem document, typed."""

from __future__ import annotations

import json
from typing import Any


class ApiError(Exception):
    """A non-2xx answer. ``problem`` is the whole problem document (extension members included)."""

    def __init__(self, status: int, problem: dict[str, Any]):
        self.status = status
        self.problem = problem
        self.type: str = str(problem.get("type", "about:blank"))
        self.title: str = str(problem.get("title", "HTTP error"))
        self.detail: str | None = problem.get("detail")
        self.errors: list[dict[str, str]] = list(problem.get("errors") or [])
        super().__init__(f"{status} {self.title}" + (f": {self.detail}" if self.detail else ""))

    @classmethod
    def from_response(cls, status: int, content: bytes) -> ApiError:
        """From a raw answer; a body that is no problem document still gives a usable error."""
        try:
            problem = json.loads(content)
        except (json.JSONDecodeError, UnicodeDecodeError):
            problem = None
        if not isinstance(problem, dict):
            problem = {
                "type": "about:blank",
                "title": "HTTP error",
                "status": status,
                "detail": content[:200].decode(errors="replace"),
            }
        return cls(status, problem)
