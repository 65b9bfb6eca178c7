from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.deprecated_subscription_list import DeprecatedSubscriptionList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/deprecated-subscriptions",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeprecatedSubscriptionList | Problem | None:
    if response.status_code == 200:
        response_200 = DeprecatedSubscriptionList.from_dict(response.json())

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
) -> Response[DeprecatedSubscriptionList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[DeprecatedSubscriptionList | Problem]:
    """List active subscriptions on deprecated versions

     Lists every owner's active subscriptions whose envelope version is deprecated in the contract (see
    `x-sunset` on the subscribe operations), newest first, with their owner and the version's
    deprecation and sunset dates, so administrators can ask their owners to move before the sunset.
    Empty while no version is deprecated. Paginated with `limit` and `cursor`. Requires scope `admin`.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeprecatedSubscriptionList | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> DeprecatedSubscriptionList | Problem | None:
    """List active subscriptions on deprecated versions

     Lists every owner's active subscriptions whose envelope version is deprecated in the contract (see
    `x-sunset` on the subscribe operations), newest first, with their owner and the version's
    deprecation and sunset dates, so administrators can ask their owners to move before the sunset.
    Empty while no version is deprecated. Paginated with `limit` and `cursor`. Requires scope `admin`.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeprecatedSubscriptionList | Problem
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[DeprecatedSubscriptionList | Problem]:
    """List active subscriptions on deprecated versions

     Lists every owner's active subscriptions whose envelope version is deprecated in the contract (see
    `x-sunset` on the subscribe operations), newest first, with their owner and the version's
    deprecation and sunset dates, so administrators can ask their owners to move before the sunset.
    Empty while no version is deprecated. Paginated with `limit` and `cursor`. Requires scope `admin`.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeprecatedSubscriptionList | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> DeprecatedSubscriptionList | Problem | None:
    """List active subscriptions on deprecated versions

     Lists every owner's active subscriptions whose envelope version is deprecated in the contract (see
    `x-sunset` on the subscribe operations), newest first, with their owner and the version's
    deprecation and sunset dates, so administrators can ask their owners to move before the sunset.
    Empty while no version is deprecated. Paginated with `limit` and `cursor`. Requires scope `admin`.

    Args:
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeprecatedSubscriptionList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
