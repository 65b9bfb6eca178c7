"""The generated client behind one object: authenticated, and raising ApiError instead of returning it."""

from __future__ import annotations

from collections.abc import Callable, Generator
from types import ModuleType
from typing import Any

import httpx

from webhook_service_client import Client

from .errors import ApiError


class ApiKeyAuth(httpx.Auth):
    """``Authorization: Bearer <api key>`` on every request; its repr never shows the key."""

    def __init__(self, api_key: str):
        self._header = f"Bearer {api_key}"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = self._header
        yield request

    def __repr__(self) -> str:
        return "ApiKeyAuth(<redacted>)"


class WebhookService:
    """``WebhookService(base_url, api_key).call(create_order, body=OrderCreate(...))``.

    ``call`` takes a generated operation module (``webhook_service_client.api.orders.create_order``)
    or its ``sync_detailed`` function, and returns the parsed 2xx body (None for 204).
    """

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 30.0):
        # The key rides in an httpx auth object rather than AuthenticatedClient's token, whose repr
        # (and the headers it copies the key into) would show it wherever the client is logged.
        httpx_args: dict[str, Any] = {"auth": ApiKeyAuth(api_key)} if api_key else {}
        self.client = Client(base_url=base_url, timeout=timeout, httpx_args=httpx_args)

    def call(self, operation: ModuleType | Callable[..., Any], **kwargs: Any) -> Any:
        """Run one operation; raise ApiError (with the problem document) on any non-2xx answer."""
        sync_detailed = getattr(operation, "sync_detailed", operation)
        response = sync_detailed(client=self.client, **kwargs)
        status = int(response.status_code)
        if not 200 <= status < 300:
            raise ApiError.from_response(status, response.content)
        return response.parsed
