from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.portal_session_create import PortalSessionCreate
from ...models.portal_session_created import PortalSessionCreated
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PortalSessionCreate | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/webhooks/v1/portal-sessions",
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PortalSessionCreated | Problem | None:
    if response.status_code == 201:
        response_201 = PortalSessionCreated.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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
) -> Response[PortalSessionCreated | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PortalSessionCreate | Unset = UNSET,
) -> Response[PortalSessionCreated | Problem]:
    """Open a subscriber portal session

     Returns a short-lived link to the subscriber portal (`/portal`) for one owner, to hand to
    that owner's people (your customer) so they manage their own webhooks without an API key.
    The session token travels in the link's URL fragment, which browsers never send to a
    server, and is never logged. It grants only: read and manage that owner's subscriptions,
    read their delivery attempts and statistics, redeliver, recover and send test events —
    and only what the creating key itself could do (its `webhooks:*` scopes; `order.*` events
    only if it has `resources:read`). A session opened by an `admin` key for the `admin` owner
    is an administrator session: it also reads the alerts, and the portal links to the
    Temporal UI. An `admin` key may open a session for any owner; any other key only for its
    own (`owner_id` omitted or equal to its owner; another gives 403). The token cannot open
    further sessions. Requires scope `webhooks:write`.

    Args:
        body (PortalSessionCreate | Unset): Whom the portal session is for and how long it lasts.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalSessionCreated | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PortalSessionCreate | Unset = UNSET,
) -> PortalSessionCreated | Problem | None:
    """Open a subscriber portal session

     Returns a short-lived link to the subscriber portal (`/portal`) for one owner, to hand to
    that owner's people (your customer) so they manage their own webhooks without an API key.
    The session token travels in the link's URL fragment, which browsers never send to a
    server, and is never logged. It grants only: read and manage that owner's subscriptions,
    read their delivery attempts and statistics, redeliver, recover and send test events —
    and only what the creating key itself could do (its `webhooks:*` scopes; `order.*` events
    only if it has `resources:read`). A session opened by an `admin` key for the `admin` owner
    is an administrator session: it also reads the alerts, and the portal links to the
    Temporal UI. An `admin` key may open a session for any owner; any other key only for its
    own (`owner_id` omitted or equal to its owner; another gives 403). The token cannot open
    further sessions. Requires scope `webhooks:write`.

    Args:
        body (PortalSessionCreate | Unset): Whom the portal session is for and how long it lasts.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalSessionCreated | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PortalSessionCreate | Unset = UNSET,
) -> Response[PortalSessionCreated | Problem]:
    """Open a subscriber portal session

     Returns a short-lived link to the subscriber portal (`/portal`) for one owner, to hand to
    that owner's people (your customer) so they manage their own webhooks without an API key.
    The session token travels in the link's URL fragment, which browsers never send to a
    server, and is never logged. It grants only: read and manage that owner's subscriptions,
    read their delivery attempts and statistics, redeliver, recover and send test events —
    and only what the creating key itself could do (its `webhooks:*` scopes; `order.*` events
    only if it has `resources:read`). A session opened by an `admin` key for the `admin` owner
    is an administrator session: it also reads the alerts, and the portal links to the
    Temporal UI. An `admin` key may open a session for any owner; any other key only for its
    own (`owner_id` omitted or equal to its owner; another gives 403). The token cannot open
    further sessions. Requires scope `webhooks:write`.

    Args:
        body (PortalSessionCreate | Unset): Whom the portal session is for and how long it lasts.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalSessionCreated | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PortalSessionCreate | Unset = UNSET,
) -> PortalSessionCreated | Problem | None:
    """Open a subscriber portal session

     Returns a short-lived link to the subscriber portal (`/portal`) for one owner, to hand to
    that owner's people (your customer) so they manage their own webhooks without an API key.
    The session token travels in the link's URL fragment, which browsers never send to a
    server, and is never logged. It grants only: read and manage that owner's subscriptions,
    read their delivery attempts and statistics, redeliver, recover and send test events —
    and only what the creating key itself could do (its `webhooks:*` scopes; `order.*` events
    only if it has `resources:read`). A session opened by an `admin` key for the `admin` owner
    is an administrator session: it also reads the alerts, and the portal links to the
    Temporal UI. An `admin` key may open a session for any owner; any other key only for its
    own (`owner_id` omitted or equal to its owner; another gives 403). The token cannot open
    further sessions. Requires scope `webhooks:write`.

    Args:
        body (PortalSessionCreate | Unset): Whom the portal session is for and how long it lasts.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalSessionCreated | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
