"""An integrator's program against the live service, run by test/integration/sdk/python.test.ts.

Subscribes a receiver of its own through the SDK (an HMAC v1 subscription and an Ed25519 v2
one), places an order, verifies and parses both deliveries, rotates both keys, places another
order and checks that the old and the new key each verify it alone during the overlap. Prints
one line per step; exits non-zero on any failure. Needs SERVICE_URL and API_KEY.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from webhook_service import ApiError, WebhookService, WebhookVerificationError, parse_event, verify, verify_event
from webhook_service_client.api.orders import create_order, get_order
from webhook_service_client.api.subscriptions import (
    create_subscription_v1,
    create_subscription_v2,
    get_subscription,
    rotate_subscription_secret,
)
from webhook_service_client.models import (
    EventType,
    OrderCreate,
    OrderCreatedEventV1,
    OrderCreatedEventV2,
    OrderItemCreate,
    SecretRotation,
    SignatureScheme,
    SubscriptionCreate,
)

TIMEOUT = 60
keys: dict[str, list[str]] = {}
received: queue.Queue[tuple[str, bytes, dict[str, str]]] = queue.Queue()


class Receiver(BaseHTTPRequestHandler):
    """Answers 204 to a delivery that verifies with the keys of its path, 401 to anything else."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        headers = dict(self.headers.items())
        try:
            verify(body, headers, keys.get(self.path, []))
        except WebhookVerificationError as err:
            print(f"refused {self.path}: {err}", flush=True)
            self.send_response(401)
            self.end_headers()
            return
        self.send_response(204)
        self.end_headers()
        received.put((self.path, body, headers))

    def log_message(self, *args: Any) -> None:
        pass


def delivery(path: str, event_type: str, order_id: int) -> tuple[bytes, dict[str, str]]:
    """The next verified delivery of `event_type` for `order_id` to `path` (others are set aside)."""
    put_back = []
    try:
        while True:
            got_path, body, headers = received.get(timeout=TIMEOUT)
            event = parse_event(body)
            if got_path == path and event.event == event_type and getattr(event.data, "order_id", None) == order_id:
                return body, headers
            put_back.append((got_path, body, headers))
    finally:
        for item in put_back:
            received.put(item)


def main() -> None:
    service = WebhookService(os.environ["SERVICE_URL"], api_key=os.environ["API_KEY"])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    hmac_sub = service.call(
        create_subscription_v1, body=SubscriptionCreate(url=f"{base}/hmac", events=[EventType.ORDER_CREATED])
    )
    keys["/hmac"] = [hmac_sub.secret]
    ed_sub = service.call(
        create_subscription_v2,
        body=SubscriptionCreate(
            url=f"{base}/ed25519", events=[EventType.ORDER_CREATED], signature=SignatureScheme.ED25519
        ),
    )
    # What any receiver can read at any time: the public key.
    public_key = service.call(get_subscription, subscription_id=ed_sub.id).public_key
    assert public_key == ed_sub.secret and public_key.startswith("whpk_"), public_key
    keys["/ed25519"] = [public_key]
    print(f"subscribed {hmac_sub.id} hmac-sha256 {ed_sub.id} ed25519", flush=True)

    order = service.call(create_order, body=OrderCreate(user_id=1, items=[OrderItemCreate(product_id=1, quantity=1)]))
    print(f"ordered {order.id} total {order.total}", flush=True)
    body, headers = delivery("/hmac", "order.created", order.id)
    event = verify_event(body, headers, keys["/hmac"])
    assert isinstance(event, OrderCreatedEventV1), type(event)
    assert event.data.total == order.total and event.data.status == "pending", event
    print(f"verified hmac {event.id} {event.event} order {event.data.order_id}", flush=True)
    body, headers = delivery("/ed25519", "order.created", order.id)
    event = verify_event(body, headers, keys["/ed25519"])
    assert isinstance(event, OrderCreatedEventV2), type(event)
    assert event.api_version == 2 and event.data.order_id == order.id, event
    print(f"verified ed25519 {event.id} {event.event} order {event.data.order_id} v{event.api_version}", flush=True)

    # Rotate both: the old key keeps signing for the overlap, beside the new one.
    old = {"/hmac": keys["/hmac"][0], "/ed25519": keys["/ed25519"][0]}
    new = {
        "/hmac": service.call(
            rotate_subscription_secret,
            subscription_id=hmac_sub.id,
            body=SecretRotation(expire_previous_in_seconds=3600),
        ).secret,
        "/ed25519": service.call(
            rotate_subscription_secret, subscription_id=ed_sub.id, body=SecretRotation(expire_previous_in_seconds=3600)
        ).secret,
    }
    assert new["/hmac"] != old["/hmac"] and new["/ed25519"].startswith("whpk_") and new["/ed25519"] != old["/ed25519"]
    keys["/hmac"] = [new["/hmac"], old["/hmac"]]
    keys["/ed25519"] = [new["/ed25519"], old["/ed25519"]]
    second = service.call(create_order, body=OrderCreate(user_id=1, items=[OrderItemCreate(product_id=1, quantity=1)]))
    for path in ("/hmac", "/ed25519"):
        body, headers = delivery(path, "order.created", second.id)
        for which, key in (("old", old[path]), ("new", new[path])):
            event = verify_event(body, headers, key)
            assert event.data.order_id == second.id
            print(f"rotation {path[1:]}: the {which} key alone verifies {event.id}", flush=True)
        if path == "/hmac":
            verify(body, headers, old[path], scheme="x-signature")
            print("rotation hmac: X-Signature-Previous verifies with the old secret", flush=True)

    try:
        service.call(get_order, order_id=999_999_999)
        raise AssertionError("a missing order did not raise")
    except ApiError as err:
        assert err.status == 404 and err.problem["status"] == 404, err.problem
        print(f"ApiError {err.status} {err.title}", flush=True)
    server.shutdown()
    print("ok", flush=True)


if __name__ == "__main__":
    try:
        main()
    except Exception as err:
        print(f"failed: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
        raise
