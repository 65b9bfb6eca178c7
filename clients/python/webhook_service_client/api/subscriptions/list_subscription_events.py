from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.subscription_event_list import SubscriptionEventList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    subscription_id: str,
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
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}/events".format(
            subscription_id=quote(str(subscription_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SubscriptionEventList | None:
    if response.status_code == 200:
        response_200 = SubscriptionEventList.from_dict(response.json())

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
) -> Response[Problem | SubscriptionEventList]:
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
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[Problem | SubscriptionEventList]:
    """List a subscription's events

     Lists the events sent to this subscription, newest first, each with its payload (`data`) and where
    its delivery stands (the state after its latest attempt, `pending` before the first, the number of
    attempts and the time of the latest). An event's `data` is shown only to a caller holding the scopes
    its type's `required_scopes` (event catalogue) names, as reading the resource would need, and, when
    the data is another owner's (an admin key's all-owners subscription), `admin`; for others the event
    is listed without `data`, with `data_withheld` naming the missing scopes. Paginated with `limit` and
    `cursor`. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubscriptionEventList]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Problem | SubscriptionEventList | None:
    """List a subscription's events

     Lists the events sent to this subscription, newest first, each with its payload (`data`) and where
    its delivery stands (the state after its latest attempt, `pending` before the first, the number of
    attempts and the time of the latest). An event's `data` is shown only to a caller holding the scopes
    its type's `required_scopes` (event catalogue) names, as reading the resource would need, and, when
    the data is another owner's (an admin key's all-owners subscription), `admin`; for others the event
    is listed without `data`, with `data_withheld` naming the missing scopes. Paginated with `limit` and
    `cursor`. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubscriptionEventList
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[Problem | SubscriptionEventList]:
    """List a subscription's events

     Lists the events sent to this subscription, newest first, each with its payload (`data`) and where
    its delivery stands (the state after its latest attempt, `pending` before the first, the number of
    attempts and the time of the latest). An event's `data` is shown only to a caller holding the scopes
    its type's `required_scopes` (event catalogue) names, as reading the resource would need, and, when
    the data is another owner's (an admin key's all-owners subscription), `admin`; for others the event
    is listed without `data`, with `data_withheld` naming the missing scopes. Paginated with `limit` and
    `cursor`. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SubscriptionEventList]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Problem | SubscriptionEventList | None:
    """List a subscription's events

     Lists the events sent to this subscription, newest first, each with its payload (`data`) and where
    its delivery stands (the state after its latest attempt, `pending` before the first, the number of
    attempts and the time of the latest). An event's `data` is shown only to a caller holding the scopes
    its type's `required_scopes` (event catalogue) names, as reading the resource would need, and, when
    the data is another owner's (an admin key's all-owners subscription), `admin`; for others the event
    is listed without `data`, with `data_withheld` naming the missing scopes. Paginated with `limit` and
    `cursor`. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SubscriptionEventList
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
