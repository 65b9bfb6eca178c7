from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.subscription import Subscription
from ...models.subscription_update import SubscriptionUpdate
from ...types import Response


def _get_kwargs(
    subscription_id: str,
    *,
    body: SubscriptionUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}".format(
            subscription_id=quote(str(subscription_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Subscription | None:
    if response.status_code == 200:
        response_200 = Subscription.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[Problem | Subscription]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: SubscriptionUpdate,
) -> Response[Problem | Subscription]:
    """Update a subscription

     Changes the URL, event list, description, status, filter, custom headers or `auth` of a subscription
    (`null` removes `auth`). Only the fields present are changed; at least one is required. `status` may
    move `active` ⇄ `paused`, and `disabled` → `active` re-enables a subscription the service disabled
    (clearing `disabled_reason`); any other move gives 409. A subscription changed by another request
    while this one was checked gives 409 `Subscription Changed Concurrently` and nothing is done; read
    it and send the change again. `version` moves the subscription to another envelope version (the next
    attempt of a pending delivery uses it); every change applies to delivery attempts that start at
    least `SUBSCRIPTION_CACHE_TTL` (1 s by default) after it; a deprecated target version is answered
    with `Deprecation`/`Sunset` headers. A new `url` must come with `headers` and `auth` again when the
    subscription has them (or `{}`/`null` to drop them), since stored credentials are never sent to a
    URL they were not set for; else 422 naming the fields to send. Requires scope `webhooks:write`, and
    for each event type, old and new, the scopes the catalogue lists for it (`order.*` needs
    `resources:read`). The caller must hold every scope creating the subscription would need (the scopes
    of each of its event types, and for a subscription made with an admin key (it receives every owner's
    events) the `admin` scope or an administrator portal session); else 403 naming what is missing, and
    nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        body (SubscriptionUpdate): Fields to change; at least one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Subscription]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: SubscriptionUpdate,
) -> Problem | Subscription | None:
    """Update a subscription

     Changes the URL, event list, description, status, filter, custom headers or `auth` of a subscription
    (`null` removes `auth`). Only the fields present are changed; at least one is required. `status` may
    move `active` ⇄ `paused`, and `disabled` → `active` re-enables a subscription the service disabled
    (clearing `disabled_reason`); any other move gives 409. A subscription changed by another request
    while this one was checked gives 409 `Subscription Changed Concurrently` and nothing is done; read
    it and send the change again. `version` moves the subscription to another envelope version (the next
    attempt of a pending delivery uses it); every change applies to delivery attempts that start at
    least `SUBSCRIPTION_CACHE_TTL` (1 s by default) after it; a deprecated target version is answered
    with `Deprecation`/`Sunset` headers. A new `url` must come with `headers` and `auth` again when the
    subscription has them (or `{}`/`null` to drop them), since stored credentials are never sent to a
    URL they were not set for; else 422 naming the fields to send. Requires scope `webhooks:write`, and
    for each event type, old and new, the scopes the catalogue lists for it (`order.*` needs
    `resources:read`). The caller must hold every scope creating the subscription would need (the scopes
    of each of its event types, and for a subscription made with an admin key (it receives every owner's
    events) the `admin` scope or an administrator portal session); else 403 naming what is missing, and
    nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        body (SubscriptionUpdate): Fields to change; at least one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Subscription
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: SubscriptionUpdate,
) -> Response[Problem | Subscription]:
    """Update a subscription

     Changes the URL, event list, description, status, filter, custom headers or `auth` of a subscription
    (`null` removes `auth`). Only the fields present are changed; at least one is required. `status` may
    move `active` ⇄ `paused`, and `disabled` → `active` re-enables a subscription the service disabled
    (clearing `disabled_reason`); any other move gives 409. A subscription changed by another request
    while this one was checked gives 409 `Subscription Changed Concurrently` and nothing is done; read
    it and send the change again. `version` moves the subscription to another envelope version (the next
    attempt of a pending delivery uses it); every change applies to delivery attempts that start at
    least `SUBSCRIPTION_CACHE_TTL` (1 s by default) after it; a deprecated target version is answered
    with `Deprecation`/`Sunset` headers. A new `url` must come with `headers` and `auth` again when the
    subscription has them (or `{}`/`null` to drop them), since stored credentials are never sent to a
    URL they were not set for; else 422 naming the fields to send. Requires scope `webhooks:write`, and
    for each event type, old and new, the scopes the catalogue lists for it (`order.*` needs
    `resources:read`). The caller must hold every scope creating the subscription would need (the scopes
    of each of its event types, and for a subscription made with an admin key (it receives every owner's
    events) the `admin` scope or an administrator portal session); else 403 naming what is missing, and
    nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        body (SubscriptionUpdate): Fields to change; at least one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Subscription]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: SubscriptionUpdate,
) -> Problem | Subscription | None:
    """Update a subscription

     Changes the URL, event list, description, status, filter, custom headers or `auth` of a subscription
    (`null` removes `auth`). Only the fields present are changed; at least one is required. `status` may
    move `active` ⇄ `paused`, and `disabled` → `active` re-enables a subscription the service disabled
    (clearing `disabled_reason`); any other move gives 409. A subscription changed by another request
    while this one was checked gives 409 `Subscription Changed Concurrently` and nothing is done; read
    it and send the change again. `version` moves the subscription to another envelope version (the next
    attempt of a pending delivery uses it); every change applies to delivery attempts that start at
    least `SUBSCRIPTION_CACHE_TTL` (1 s by default) after it; a deprecated target version is answered
    with `Deprecation`/`Sunset` headers. A new `url` must come with `headers` and `auth` again when the
    subscription has them (or `{}`/`null` to drop them), since stored credentials are never sent to a
    URL they were not set for; else 422 naming the fields to send. Requires scope `webhooks:write`, and
    for each event type, old and new, the scopes the catalogue lists for it (`order.*` needs
    `resources:read`). The caller must hold every scope creating the subscription would need (the scopes
    of each of its event types, and for a subscription made with an admin key (it receives every owner's
    events) the `admin` scope or an administrator portal session); else 403 naming what is missing, and
    nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        body (SubscriptionUpdate): Fields to change; at least one.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Subscription
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
            body=body,
        )
    ).parsed
