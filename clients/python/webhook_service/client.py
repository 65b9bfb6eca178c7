"""The generated client behind one object: authenticated, and raising ApiError instead of returning it."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from webhook_service_client import AuthenticatedClient, Client

from .errors import ApiError


class WebhookService:
    """``WebhookService(base_url, api_key).call(create_order, body=OrderCreate(...))``.

    ``call`` takes a generated operation module (``webhook_service_client.api.orders.create_order``)
    or its ``sync_detailed`` function, and returns the parsed 2xx body (None for 204).
    """

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 30.0):
        if api_key:
            self.client: AuthenticatedClient | Client = AuthenticatedClient(
                base_url=base_url, token=api_key, timeout=timeout
            )
        else:
            self.client = Client(base_url=base_url, timeout=timeout)

    def call(self, operation: ModuleType | Callable[..., Any], **kwargs: Any) -> Any:
        """Run one operation; raise ApiError (with the problem document) on any non-2xx answer."""
        sync_detailed = getattr(operation, "sync_detailed", operation)
        response = sync_detailed(client=self.client, **kwargs)
        status = int(response.status_code)
        if not 200 <= status < 300:
            raise ApiError.from_response(status, response.content)
        return response.parsed
