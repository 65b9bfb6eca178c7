from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    subscription_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}".format(
            subscription_id=quote(str(subscription_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
) -> Response[Any | Problem]:
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
) -> Response[Any | Problem]:
    """Delete a subscription

     Removes a subscription. No further deliveries are started for it, pending retries are abandoned, and
    afterwards every path naming it answers 404. Requires scope `webhooks:write`. The caller must hold
    every scope creating the subscription would need (the scopes of each of its event types, and for a
    subscription made with an admin key (it receives every owner's events) the `admin` scope or an
    administrator portal session); else 403 naming what is missing, and nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
) -> Any | Problem | None:
    """Delete a subscription

     Removes a subscription. No further deliveries are started for it, pending retries are abandoned, and
    afterwards every path naming it answers 404. Requires scope `webhooks:write`. The caller must hold
    every scope creating the subscription would need (the scopes of each of its event types, and for a
    subscription made with an admin key (it receives every owner's events) the `admin` scope or an
    administrator portal session); else 403 naming what is missing, and nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Any | Problem]:
    """Delete a subscription

     Removes a subscription. No further deliveries are started for it, pending retries are abandoned, and
    afterwards every path naming it answers 404. Requires scope `webhooks:write`. The caller must hold
    every scope creating the subscription would need (the scopes of each of its event types, and for a
    subscription made with an admin key (it receives every owner's events) the `admin` scope or an
    administrator portal session); else 403 naming what is missing, and nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
) -> Any | Problem | None:
    """Delete a subscription

     Removes a subscription. No further deliveries are started for it, pending retries are abandoned, and
    afterwards every path naming it answers 404. Requires scope `webhooks:write`. The caller must hold
    every scope creating the subscription would need (the scopes of each of its event types, and for a
    subscription made with an admin key (it receives every owner's events) the `admin` scope or an
    administrator portal session); else 403 naming what is missing, and nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
        )
    ).parsed
