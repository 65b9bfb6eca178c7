"""Webhook Service SDK: the generated client (``webhook_service_client``) and a thin layer over it.

- ``WebhookService(base_url, api_key).call(operation, **kwargs)`` raises ``ApiError`` on a problem;
- ``verify`` / ``verify_event`` check a delivery (``whsec_`` secrets, ``whpk_`` keys, rotation);
- ``parse_event`` turns a verified body into the contract's typed envelope.
"""

from .client import WebhookService
from .errors import ApiError
from .events import UnknownEvent, WebhookEvent, WebhookEventV1, WebhookEventV2, parse_event, verify_event
from .webhooks import WebhookVerificationError, verify

__all__ = [
    "ApiError",
    "UnknownEvent",
    "WebhookEvent",
    "WebhookEventV1",
    "WebhookEventV2",
    "WebhookService",
    "WebhookVerificationError",
    "parse_event",
    "verify",
    "verify_event",
]
