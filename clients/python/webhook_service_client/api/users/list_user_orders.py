from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.order_summary_list import OrderSummaryList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    user_id: int,
    *,
    limit: int | Unset = 20,
    fields: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["fields"] = fields

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/users/{user_id}/orders".format(
            user_id=quote(str(user_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> OrderSummaryList | Problem | None:
    if response.status_code == 200:
        response_200 = OrderSummaryList.from_dict(response.json())

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
) -> Response[OrderSummaryList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: int,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    fields: str | Unset = UNSET,
) -> Response[OrderSummaryList | Problem]:
    """List a user's orders

     Returns up to `limit` of the user's orders that the caller's owner created (every owner's with an
    `admin` key), newest first. `fields` selects which of `id`, `total` and `date` each item carries
    (comma-separated, e.g. `fields=id,total`); without `fields` all three are returned. Unknown users
    give 404. Requires scope `resources:read`.

    Args:
        user_id (int):
        limit (int | Unset):  Default: 20.
        fields (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OrderSummaryList | Problem]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        limit=limit,
        fields=fields,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: int,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    fields: str | Unset = UNSET,
) -> OrderSummaryList | Problem | None:
    """List a user's orders

     Returns up to `limit` of the user's orders that the caller's owner created (every owner's with an
    `admin` key), newest first. `fields` selects which of `id`, `total` and `date` each item carries
    (comma-separated, e.g. `fields=id,total`); without `fields` all three are returned. Unknown users
    give 404. Requires scope `resources:read`.

    Args:
        user_id (int):
        limit (int | Unset):  Default: 20.
        fields (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OrderSummaryList | Problem
    """

    return sync_detailed(
        user_id=user_id,
        client=client,
        limit=limit,
        fields=fields,
    ).parsed


async def asyncio_detailed(
    user_id: int,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    fields: str | Unset = UNSET,
) -> Response[OrderSummaryList | Problem]:
    """List a user's orders

     Returns up to `limit` of the user's orders that the caller's owner created (every owner's with an
    `admin` key), newest first. `fields` selects which of `id`, `total` and `date` each item carries
    (comma-separated, e.g. `fields=id,total`); without `fields` all three are returned. Unknown users
    give 404. Requires scope `resources:read`.

    Args:
        user_id (int):
        limit (int | Unset):  Default: 20.
        fields (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OrderSummaryList | Problem]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        limit=limit,
        fields=fields,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: int,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    fields: str | Unset = UNSET,
) -> OrderSummaryList | Problem | None:
    """List a user's orders

     Returns up to `limit` of the user's orders that the caller's owner created (every owner's with an
    `admin` key), newest first. `fields` selects which of `id`, `total` and `date` each item carries
    (comma-separated, e.g. `fields=id,total`); without `fields` all three are returned. Unknown users
    give 404. Requires scope `resources:read`.

    Args:
        user_id (int):
        limit (int | Unset):  Default: 20.
        fields (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OrderSummaryList | Problem
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            client=client,
            limit=limit,
            fields=fields,
        )
    ).parsed
