"""Parsing a verified delivery into the contract's typed envelope (``WebhookEventV1``/``V2``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from webhook_service_client.models.order_created_event_v1 import OrderCreatedEventV1
from webhook_service_client.models.order_created_event_v2 import OrderCreatedEventV2
from webhook_service_client.models.order_updated_event_v1 import OrderUpdatedEventV1
from webhook_service_client.models.order_updated_event_v2 import OrderUpdatedEventV2
from webhook_service_client.models.stock_low_event_v1 import StockLowEventV1
from webhook_service_client.models.stock_low_event_v2 import StockLowEventV2
from webhook_service_client.models.stock_updated_event_v1 import StockUpdatedEventV1
from webhook_service_client.models.stock_updated_event_v2 import StockUpdatedEventV2
from webhook_service_client.models.webhook_test_event_v1 import WebhookTestEventV1
from webhook_service_client.models.webhook_test_event_v2 import WebhookTestEventV2

from .webhooks import DEFAULT_TOLERANCE, Scheme, WebhookVerificationError, verify

# The contract's discriminator mappings (WebhookEventV1, WebhookEventV2): event type -> envelope model.
V1_EVENTS: dict[str, Any] = {
    "order.created": OrderCreatedEventV1,
    "order.updated": OrderUpdatedEventV1,
    "webhook.test": WebhookTestEventV1,
    "stock.updated": StockUpdatedEventV1,
    "stock.low": StockLowEventV1,
}
V2_EVENTS: dict[str, Any] = {
    "order.created": OrderCreatedEventV2,
    "order.updated": OrderUpdatedEventV2,
    "webhook.test": WebhookTestEventV2,
    "stock.updated": StockUpdatedEventV2,
    "stock.low": StockLowEventV2,
}


@dataclass
class UnknownEvent:
    """An event type this SDK does not know yet (the contract says types may be added): acknowledge it."""

    event: str
    id: str
    raw: dict[str, Any] = field(repr=False)


WebhookEventV1 = OrderCreatedEventV1 | OrderUpdatedEventV1 | WebhookTestEventV1 | StockUpdatedEventV1 | StockLowEventV1
WebhookEventV2 = OrderCreatedEventV2 | OrderUpdatedEventV2 | WebhookTestEventV2 | StockUpdatedEventV2 | StockLowEventV2
WebhookEvent = WebhookEventV1 | WebhookEventV2 | UnknownEvent


def parse_event(body: bytes | str | Mapping[str, Any]) -> WebhookEvent:
    """The typed envelope of a verified body: v2 when it carries ``api_version``, else v1, by ``event``.

    Check it with ``isinstance`` (``OrderCreatedEventV1``, ...); an event type the SDK does not know
    comes back as ``UnknownEvent``. Raises ValueError on a body that is no envelope.
    """
    obj = json.loads(body) if isinstance(body, (bytes, str)) else dict(body)
    if not isinstance(obj, dict) or not isinstance(obj.get("event"), str) or not isinstance(obj.get("id"), str):
        raise ValueError("not a webhook envelope: an object with string event and id is expected")  # noqa: TRY004 (a bad body is a bad value)
    by_type = V2_EVENTS if "api_version" in obj else V1_EVENTS
    model = by_type.get(obj["event"])
    if model is None:
        return UnknownEvent(event=obj["event"], id=obj["id"], raw=obj)
    return model.from_dict(obj)


def verify_event(
    body: bytes | str,
    headers: Mapping[str, Any],
    keys: str | Sequence[str],
    *,
    scheme: Scheme = "standard-webhooks",
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> WebhookEvent:
    """``verify`` then ``parse_event``: the typed envelope of an authentic, fresh delivery."""
    parsed = verify(body, headers, keys, scheme=scheme, tolerance=tolerance, now=now)
    try:
        return parse_event(parsed)
    except (KeyError, TypeError, ValueError) as err:
        raise WebhookVerificationError(f"verified, but not an envelope of the contract: {err}") from err
