"""The shared vectors (clients/vectors/signatures.json) against the Python SDK's verify."""

import json
import pathlib
import unittest

from webhook_service import WebhookVerificationError, parse_event, verify
from webhook_service_client.models.order_created_event_v1 import OrderCreatedEventV1

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "vectors" / "signatures.json"


class SharedVectors(unittest.TestCase):
    def test_vectors(self) -> None:
        vectors = json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"]
        self.assertGreaterEqual(len(vectors), 25)
        for v in vectors:
            with self.subTest(v["name"]):
                args = (v["body"].encode("utf-8"), v["headers"], v["keys"])
                opts = {"scheme": v["scheme"], "tolerance": v["tolerance"], "now": v["now"]}
                if v["valid"]:
                    self.assertEqual(verify(*args, **opts), json.loads(v["body"]))
                else:
                    with self.assertRaises(WebhookVerificationError):
                        verify(*args, **opts)

    def test_a_verified_body_parses_into_its_typed_envelope(self) -> None:
        v = json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"][0]
        event = parse_event(verify(v["body"], v["headers"], v["keys"], now=v["now"]))
        self.assertIsInstance(event, OrderCreatedEventV1)
        self.assertEqual(event.data.total, 59.97)
        # A field the SDK does not know yet is kept, not an error (the contract lets data grow).
        self.assertEqual(event.data.additional_properties["note"], "crème brûlée")


if __name__ == "__main__":
    unittest.main()
