"""WebhookService keeps its API key out of every repr, so logging the client never leaks it."""

import unittest

import httpx

from webhook_service import WebhookService

KEY = "whk_test_NotARealKeyButSecretEnough"


class ApiKeyStaysHidden(unittest.TestCase):
    def test_the_client_repr_never_shows_the_key(self) -> None:
        service = WebhookService("http://localhost:3000", KEY)
        service.client.get_httpx_client()  # building it must not copy the key anywhere visible
        for shown in (repr(service.client), str(service.client), repr(vars(service))):
            self.assertNotIn(KEY, shown)
        self.assertIn("<redacted>", repr(service.client))

    def test_every_request_still_carries_the_key(self) -> None:
        seen: list[str | None] = []

        def answer(request: httpx.Request) -> httpx.Response:
            seen.append(request.headers.get("authorization"))
            return httpx.Response(204)

        service = WebhookService("http://localhost:3000", KEY)
        auth = service.client.get_httpx_client().auth
        with httpx.Client(transport=httpx.MockTransport(answer), auth=auth) as http:
            http.get("http://localhost:3000/api/health")
        self.assertEqual(seen, [f"Bearer {KEY}"])

    def test_without_a_key_no_authorization_is_sent(self) -> None:
        service = WebhookService("http://localhost:3000")
        self.assertNotIn("authorization", service.client.get_httpx_client().headers)


if __name__ == "__main__":
    unittest.main()
