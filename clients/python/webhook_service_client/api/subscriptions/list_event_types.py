from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_type_list import EventTypeList
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/event-types",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EventTypeList | Problem | None:
    if response.status_code == 200:
        response_200 = EventTypeList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EventTypeList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[EventTypeList | Problem]:
    """List event types

     Lists every event type a subscription can name, with a description and the JSON Schema of its `data`
    payload, read from this contract (`x-event-catalog`), and the signature schemes a subscription can
    choose with `signature` (`signature_schemes`, from `x-signature-schemes`). The envelope around
    `data` depends on the subscription version (see the `webhooks` section). Requires scope
    `webhooks:read`.

    Besides its `url` and these `events`, what an integrator can set on a subscription (on subscribe and
    `PATCH`):
    - `description`, `status` (`active`/`paused`), `version` (the envelope) and a `secret` (or a
    rotation);
    - `filter`: only the events it matches are delivered (`SubscriptionFilter`);
    - `headers`: up to 20 custom request headers, values sealed (`SubscriptionHeaders`);
    - `max_in_flight`: most POSTs a worker sends to it at once (`MaxInFlight`);
    - `rate_limit`: most deliveries per second to it over every worker, `null` for none (`RateLimit`);
    - `ordering`: `per_key` delivers the events of one ordering key (each type's `ordering_key`) in
    emission order (`SubscriptionOrdering`);
    - `auth`: bearer, basic or OAuth 2.0 client credentials towards the receiver, credentials sealed and
    never returned (`SubscriptionAuth`);
    - `destination`: `http` (the default), a RabbitMQ exchange, a Kafka topic, a NATS JetStream subject,
    a Redis stream or an Amazon SQS queue, credentials sealed and never returned
    (`SubscriptionDestination`);
    - `signature`: `hmac-sha256` (the default) or `ed25519`, set on subscribe and switched by a rotation
    (`SignatureScheme`);
    - `retry`: its own retry schedule and attempts within the service's bounds, `null` for the
    service's; `GET` shows the effective one (`SubscriptionRetry`, `EffectiveRetry`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventTypeList | Problem]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> EventTypeList | Problem | None:
    """List event types

     Lists every event type a subscription can name, with a description and the JSON Schema of its `data`
    payload, read from this contract (`x-event-catalog`), and the signature schemes a subscription can
    choose with `signature` (`signature_schemes`, from `x-signature-schemes`). The envelope around
    `data` depends on the subscription version (see the `webhooks` section). Requires scope
    `webhooks:read`.

    Besides its `url` and these `events`, what an integrator can set on a subscription (on subscribe and
    `PATCH`):
    - `description`, `status` (`active`/`paused`), `version` (the envelope) and a `secret` (or a
    rotation);
    - `filter`: only the events it matches are delivered (`SubscriptionFilter`);
    - `headers`: up to 20 custom request headers, values sealed (`SubscriptionHeaders`);
    - `max_in_flight`: most POSTs a worker sends to it at once (`MaxInFlight`);
    - `rate_limit`: most deliveries per second to it over every worker, `null` for none (`RateLimit`);
    - `ordering`: `per_key` delivers the events of one ordering key (each type's `ordering_key`) in
    emission order (`SubscriptionOrdering`);
    - `auth`: bearer, basic or OAuth 2.0 client credentials towards the receiver, credentials sealed and
    never returned (`SubscriptionAuth`);
    - `destination`: `http` (the default), a RabbitMQ exchange, a Kafka topic, a NATS JetStream subject,
    a Redis stream or an Amazon SQS queue, credentials sealed and never returned
    (`SubscriptionDestination`);
    - `signature`: `hmac-sha256` (the default) or `ed25519`, set on subscribe and switched by a rotation
    (`SignatureScheme`);
    - `retry`: its own retry schedule and attempts within the service's bounds, `null` for the
    service's; `GET` shows the effective one (`SubscriptionRetry`, `EffectiveRetry`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventTypeList | Problem
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[EventTypeList | Problem]:
    """List event types

     Lists every event type a subscription can name, with a description and the JSON Schema of its `data`
    payload, read from this contract (`x-event-catalog`), and the signature schemes a subscription can
    choose with `signature` (`signature_schemes`, from `x-signature-schemes`). The envelope around
    `data` depends on the subscription version (see the `webhooks` section). Requires scope
    `webhooks:read`.

    Besides its `url` and these `events`, what an integrator can set on a subscription (on subscribe and
    `PATCH`):
    - `description`, `status` (`active`/`paused`), `version` (the envelope) and a `secret` (or a
    rotation);
    - `filter`: only the events it matches are delivered (`SubscriptionFilter`);
    - `headers`: up to 20 custom request headers, values sealed (`SubscriptionHeaders`);
    - `max_in_flight`: most POSTs a worker sends to it at once (`MaxInFlight`);
    - `rate_limit`: most deliveries per second to it over every worker, `null` for none (`RateLimit`);
    - `ordering`: `per_key` delivers the events of one ordering key (each type's `ordering_key`) in
    emission order (`SubscriptionOrdering`);
    - `auth`: bearer, basic or OAuth 2.0 client credentials towards the receiver, credentials sealed and
    never returned (`SubscriptionAuth`);
    - `destination`: `http` (the default), a RabbitMQ exchange, a Kafka topic, a NATS JetStream subject,
    a Redis stream or an Amazon SQS queue, credentials sealed and never returned
    (`SubscriptionDestination`);
    - `signature`: `hmac-sha256` (the default) or `ed25519`, set on subscribe and switched by a rotation
    (`SignatureScheme`);
    - `retry`: its own retry schedule and attempts within the service's bounds, `null` for the
    service's; `GET` shows the effective one (`SubscriptionRetry`, `EffectiveRetry`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventTypeList | Problem]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> EventTypeList | Problem | None:
    """List event types

     Lists every event type a subscription can name, with a description and the JSON Schema of its `data`
    payload, read from this contract (`x-event-catalog`), and the signature schemes a subscription can
    choose with `signature` (`signature_schemes`, from `x-signature-schemes`). The envelope around
    `data` depends on the subscription version (see the `webhooks` section). Requires scope
    `webhooks:read`.

    Besides its `url` and these `events`, what an integrator can set on a subscription (on subscribe and
    `PATCH`):
    - `description`, `status` (`active`/`paused`), `version` (the envelope) and a `secret` (or a
    rotation);
    - `filter`: only the events it matches are delivered (`SubscriptionFilter`);
    - `headers`: up to 20 custom request headers, values sealed (`SubscriptionHeaders`);
    - `max_in_flight`: most POSTs a worker sends to it at once (`MaxInFlight`);
    - `rate_limit`: most deliveries per second to it over every worker, `null` for none (`RateLimit`);
    - `ordering`: `per_key` delivers the events of one ordering key (each type's `ordering_key`) in
    emission order (`SubscriptionOrdering`);
    - `auth`: bearer, basic or OAuth 2.0 client credentials towards the receiver, credentials sealed and
    never returned (`SubscriptionAuth`);
    - `destination`: `http` (the default), a RabbitMQ exchange, a Kafka topic, a NATS JetStream subject,
    a Redis stream or an Amazon SQS queue, credentials sealed and never returned
    (`SubscriptionDestination`);
    - `signature`: `hmac-sha256` (the default) or `ed25519`, set on subscribe and switched by a rotation
    (`SignatureScheme`);
    - `retry`: its own retry schedule and attempts within the service's bounds, `null` for the
    service's; `GET` shows the effective one (`SubscriptionRetry`, `EffectiveRetry`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventTypeList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
