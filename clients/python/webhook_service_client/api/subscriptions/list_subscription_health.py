from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.subscription_health_list import SubscriptionHealthList
from ...types import UNSET, Response


def _get_kwargs(
    *,
    subscription_ids: str,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["subscription_ids"] = subscription_ids

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/subscription-health",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SubscriptionHealthList | None:
    if response.status_code == 200:
        response_200 = SubscriptionHealthList.from_dict(response.json())

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
) -> Response[Problem | SubscriptionHealthList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    subscription_ids: str,
) -> Response[Problem | SubscriptionHealthList]:
    """Health of several subscriptions

     For each of the caller's subscriptions named in `subscription_ids` (up to 50, a page of the
    subscription list), since when every delivery to it has failed (`failing_since`) and its recent
    success rate, the share of attempts that delivered among those made in the last 6 hours to events
    emitted in that time. Reads a bounded set per subscription (the attempts of its events of the last
    hours, by event group), so a list page costs one request. Ids that are not the caller's
    subscriptions are left out. Requires scope `webhooks:read`.

    Args:
        subscription_ids (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubscriptionHealthList]
    """

    kwargs = _get_kwargs(
        subscription_ids=subscription_ids,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    subscription_ids: str,
) -> Problem | SubscriptionHealthList | None:
    """Health of several subscriptions

     For each of the caller's subscriptions named in `subscription_ids` (up to 50, a page of the
    subscription list), since when every delivery to it has failed (`failing_since`) and its recent
    success rate, the share of attempts that delivered among those made in the last 6 hours to events
    emitted in that time. Reads a bounded set per subscription (the attempts of its events of the last
    hours, by event group), so a list page costs one request. Ids that are not the caller's
    subscriptions are left out. Requires scope `webhooks:read`.

    Args:
        subscription_ids (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubscriptionHealthList
    """

    return sync_detailed(
        client=client,
        subscription_ids=subscription_ids,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    subscription_ids: str,
) -> Response[Problem | SubscriptionHealthList]:
    """Health of several subscriptions

     For each of the caller's subscriptions named in `subscription_ids` (up to 50, a page of the
    subscription list), since when every delivery to it has failed (`failing_since`) and its recent
    success rate, the share of attempts that delivered among those made in the last 6 hours to events
    emitted in that time. Reads a bounded set per subscription (the attempts of its events of the last
    hours, by event group), so a list page costs one request. Ids that are not the caller's
    subscriptions are left out. Requires scope `webhooks:read`.

    Args:
        subscription_ids (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubscriptionHealthList]
    """

    kwargs = _get_kwargs(
        subscription_ids=subscription_ids,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    subscription_ids: str,
) -> Problem | SubscriptionHealthList | None:
    """Health of several subscriptions

     For each of the caller's subscriptions named in `subscription_ids` (up to 50, a page of the
    subscription list), since when every delivery to it has failed (`failing_since`) and its recent
    success rate, the share of attempts that delivered among those made in the last 6 hours to events
    emitted in that time. Reads a bounded set per subscription (the attempts of its events of the last
    hours, by event group), so a list page costs one request. Ids that are not the caller's
    subscriptions are left out. Requires scope `webhooks:read`.

    Args:
        subscription_ids (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubscriptionHealthList
    """

    return (
        await asyncio_detailed(
            client=client,
            subscription_ids=subscription_ids,
        )
    ).parsed
