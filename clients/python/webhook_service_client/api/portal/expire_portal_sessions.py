from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.portal_sessions_expire import PortalSessionsExpire
from ...models.portal_sessions_expired import PortalSessionsExpired
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PortalSessionsExpire | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/webhooks/v1/portal-sessions/expire-all",
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PortalSessionsExpired | Problem | None:
    if response.status_code == 200:
        response_200 = PortalSessionsExpired.from_dict(response.json())

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
) -> Response[PortalSessionsExpired | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PortalSessionsExpire | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[PortalSessionsExpired | Problem]:
    """End an owner's portal sessions

     Ends every portal session opened for one owner until now, e.g. when a link leaked or a
    person left: their tokens get 401 from then on (within 5 seconds on every API process;
    each process keeps what it read for that long). Sessions opened afterwards work. The same
    owner rules as opening a session apply: an `admin` key may name any owner, any other key
    only its own. Requires scope `webhooks:write`.

    Args:
        idempotency_key (str | Unset):
        body (PortalSessionsExpire | Unset): Whose portal sessions to end.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalSessionsExpired | Problem]
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
    body: PortalSessionsExpire | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> PortalSessionsExpired | Problem | None:
    """End an owner's portal sessions

     Ends every portal session opened for one owner until now, e.g. when a link leaked or a
    person left: their tokens get 401 from then on (within 5 seconds on every API process;
    each process keeps what it read for that long). Sessions opened afterwards work. The same
    owner rules as opening a session apply: an `admin` key may name any owner, any other key
    only its own. Requires scope `webhooks:write`.

    Args:
        idempotency_key (str | Unset):
        body (PortalSessionsExpire | Unset): Whose portal sessions to end.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalSessionsExpired | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PortalSessionsExpire | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[PortalSessionsExpired | Problem]:
    """End an owner's portal sessions

     Ends every portal session opened for one owner until now, e.g. when a link leaked or a
    person left: their tokens get 401 from then on (within 5 seconds on every API process;
    each process keeps what it read for that long). Sessions opened afterwards work. The same
    owner rules as opening a session apply: an `admin` key may name any owner, any other key
    only its own. Requires scope `webhooks:write`.

    Args:
        idempotency_key (str | Unset):
        body (PortalSessionsExpire | Unset): Whose portal sessions to end.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalSessionsExpired | Problem]
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
    body: PortalSessionsExpire | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> PortalSessionsExpired | Problem | None:
    """End an owner's portal sessions

     Ends every portal session opened for one owner until now, e.g. when a link leaked or a
    person left: their tokens get 401 from then on (within 5 seconds on every API process;
    each process keeps what it read for that long). Sessions opened afterwards work. The same
    owner rules as opening a session apply: an `admin` key may name any owner, any other key
    only its own. Requires scope `webhooks:write`.

    Args:
        idempotency_key (str | Unset):
        body (PortalSessionsExpire | Unset): Whose portal sessions to end.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalSessionsExpired | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
