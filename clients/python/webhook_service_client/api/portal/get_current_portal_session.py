from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.portal_session_info import PortalSessionInfo
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/portal-sessions/current",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PortalSessionInfo | Problem | None:
    if response.status_code == 200:
        response_200 = PortalSessionInfo.from_dict(response.json())

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
) -> Response[PortalSessionInfo | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[PortalSessionInfo | Problem]:
    """The calling portal session

     Describes the portal session whose token is presented (owner, expiry, what it grants, and for an
    administrator session where the Temporal UI is). The portal calls it first, so an expired or altered
    link gets a clear 401 before anything else. Portal session tokens only.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalSessionInfo | Problem]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> PortalSessionInfo | Problem | None:
    """The calling portal session

     Describes the portal session whose token is presented (owner, expiry, what it grants, and for an
    administrator session where the Temporal UI is). The portal calls it first, so an expired or altered
    link gets a clear 401 before anything else. Portal session tokens only.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalSessionInfo | Problem
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[PortalSessionInfo | Problem]:
    """The calling portal session

     Describes the portal session whose token is presented (owner, expiry, what it grants, and for an
    administrator session where the Temporal UI is). The portal calls it first, so an expired or altered
    link gets a clear 401 before anything else. Portal session tokens only.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PortalSessionInfo | Problem]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> PortalSessionInfo | Problem | None:
    """The calling portal session

     Describes the portal session whose token is presented (owner, expiry, what it grants, and for an
    administrator session where the Temporal UI is). The portal calls it first, so an expired or altered
    link gets a clear 401 before anything else. Portal session tokens only.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PortalSessionInfo | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
