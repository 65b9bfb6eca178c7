from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.subscription_create import SubscriptionCreate
from ...models.subscription_with_secret import SubscriptionWithSecret
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: SubscriptionCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/webhooks/v2/subscribe",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SubscriptionWithSecret | None:
    if response.status_code == 201:
        response_201 = SubscriptionWithSecret.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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
) -> Response[Problem | SubscriptionWithSecret]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SubscriptionCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | SubscriptionWithSecret]:
    """Create a v2 subscription

     Same as the v1 operation, but the subscription is created with `version` 2 and its deliveries use
    the v2 envelope, which adds `api_version` (2) and `created_at` to `{event, id, data}`. Management of
    v2 subscriptions (list, get, update, delete, rotate, test, attempts) uses the `/api/webhooks/v1/`
    paths. Requires scope `webhooks:write`, and for each event type the scopes the catalogue lists for
    it (`order.*` needs `resources:read`; else 403 naming the event). An owner may have at most
    `MAX_SUBSCRIPTIONS_PER_OWNER` subscriptions (default 100); one more is a 409 naming the limit.

    Args:
        idempotency_key (str | Unset):
        body (SubscriptionCreate): A new subscription.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubscriptionWithSecret]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: SubscriptionCreate,
    idempotency_key: str | Unset = UNSET,
) -> Problem | SubscriptionWithSecret | None:
    """Create a v2 subscription

     Same as the v1 operation, but the subscription is created with `version` 2 and its deliveries use
    the v2 envelope, which adds `api_version` (2) and `created_at` to `{event, id, data}`. Management of
    v2 subscriptions (list, get, update, delete, rotate, test, attempts) uses the `/api/webhooks/v1/`
    paths. Requires scope `webhooks:write`, and for each event type the scopes the catalogue lists for
    it (`order.*` needs `resources:read`; else 403 naming the event). An owner may have at most
    `MAX_SUBSCRIPTIONS_PER_OWNER` subscriptions (default 100); one more is a 409 naming the limit.

    Args:
        idempotency_key (str | Unset):
        body (SubscriptionCreate): A new subscription.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubscriptionWithSecret
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SubscriptionCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | SubscriptionWithSecret]:
    """Create a v2 subscription

     Same as the v1 operation, but the subscription is created with `version` 2 and its deliveries use
    the v2 envelope, which adds `api_version` (2) and `created_at` to `{event, id, data}`. Management of
    v2 subscriptions (list, get, update, delete, rotate, test, attempts) uses the `/api/webhooks/v1/`
    paths. Requires scope `webhooks:write`, and for each event type the scopes the catalogue lists for
    it (`order.*` needs `resources:read`; else 403 naming the event). An owner may have at most
    `MAX_SUBSCRIPTIONS_PER_OWNER` subscriptions (default 100); one more is a 409 naming the limit.

    Args:
        idempotency_key (str | Unset):
        body (SubscriptionCreate): A new subscription.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubscriptionWithSecret]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SubscriptionCreate,
    idempotency_key: str | Unset = UNSET,
) -> Problem | SubscriptionWithSecret | None:
    """Create a v2 subscription

     Same as the v1 operation, but the subscription is created with `version` 2 and its deliveries use
    the v2 envelope, which adds `api_version` (2) and `created_at` to `{event, id, data}`. Management of
    v2 subscriptions (list, get, update, delete, rotate, test, attempts) uses the `/api/webhooks/v1/`
    paths. Requires scope `webhooks:write`, and for each event type the scopes the catalogue lists for
    it (`order.*` needs `resources:read`; else 403 naming the event). An owner may have at most
    `MAX_SUBSCRIPTIONS_PER_OWNER` subscriptions (default 100); one more is a 409 naming the limit.

    Args:
        idempotency_key (str | Unset):
        body (SubscriptionCreate): A new subscription.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubscriptionWithSecret
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
