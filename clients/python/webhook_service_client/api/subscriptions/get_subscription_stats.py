from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.subscription_stats import SubscriptionStats
from ...types import UNSET, Response, Unset


def _get_kwargs(
    subscription_id: str,
    *,
    hours: int | Unset = 24,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["hours"] = hours

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}/stats".format(
            subscription_id=quote(str(subscription_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SubscriptionStats | None:
    if response.status_code == 200:
        response_200 = SubscriptionStats.from_dict(response.json())

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
) -> Response[Problem | SubscriptionStats]:
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
    hours: int | Unset = 24,
) -> Response[Problem | SubscriptionStats]:
    """Delivery statistics

     Counts this subscription's delivery attempts per hour over the last `hours` hours (24 by default),
    with how many were delivered and the latency of the answers (median and 95th percentile of
    `duration_ms`), oldest hour first; every hour of the window is present, empty ones with zero
    attempts. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        hours (int | Unset):  Default: 24.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubscriptionStats]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        hours=hours,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    hours: int | Unset = 24,
) -> Problem | SubscriptionStats | None:
    """Delivery statistics

     Counts this subscription's delivery attempts per hour over the last `hours` hours (24 by default),
    with how many were delivered and the latency of the answers (median and 95th percentile of
    `duration_ms`), oldest hour first; every hour of the window is present, empty ones with zero
    attempts. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        hours (int | Unset):  Default: 24.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubscriptionStats
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
        hours=hours,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    hours: int | Unset = 24,
) -> Response[Problem | SubscriptionStats]:
    """Delivery statistics

     Counts this subscription's delivery attempts per hour over the last `hours` hours (24 by default),
    with how many were delivered and the latency of the answers (median and 95th percentile of
    `duration_ms`), oldest hour first; every hour of the window is present, empty ones with zero
    attempts. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        hours (int | Unset):  Default: 24.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubscriptionStats]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        hours=hours,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    hours: int | Unset = 24,
) -> Problem | SubscriptionStats | None:
    """Delivery statistics

     Counts this subscription's delivery attempts per hour over the last `hours` hours (24 by default),
    with how many were delivered and the latency of the answers (median and 95th percentile of
    `duration_ms`), oldest hour first; every hour of the window is present, empty ones with zero
    attempts. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        hours (int | Unset):  Default: 24.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubscriptionStats
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
            hours=hours,
        )
    ).parsed
