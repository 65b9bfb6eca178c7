from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.product_list import ProductList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    filter_: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["filter"] = filter_

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/catalog/products",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ProductList | None:
    if response.status_code == 200:
        response_200 = ProductList.from_dict(response.json())

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
) -> Response[Problem | ProductList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    filter_: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[Problem | ProductList]:
    """List catalog products

     Returns up to `limit` catalog products, optionally filtered. The `filter` grammar is
    `<field>=<value>` with one condition; filterable fields are `category` and `sku`, values are 1 to 64
    characters of `A-Z a-z 0-9 _ -` (e.g. `filter=category=books`, URL-encoded as
    `filter=category%3Dbooks`). Requires scope `resources:read`.

    Args:
        filter_ (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ProductList]
    """

    kwargs = _get_kwargs(
        filter_=filter_,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    filter_: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Problem | ProductList | None:
    """List catalog products

     Returns up to `limit` catalog products, optionally filtered. The `filter` grammar is
    `<field>=<value>` with one condition; filterable fields are `category` and `sku`, values are 1 to 64
    characters of `A-Z a-z 0-9 _ -` (e.g. `filter=category=books`, URL-encoded as
    `filter=category%3Dbooks`). Requires scope `resources:read`.

    Args:
        filter_ (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ProductList
    """

    return sync_detailed(
        client=client,
        filter_=filter_,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    filter_: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[Problem | ProductList]:
    """List catalog products

     Returns up to `limit` catalog products, optionally filtered. The `filter` grammar is
    `<field>=<value>` with one condition; filterable fields are `category` and `sku`, values are 1 to 64
    characters of `A-Z a-z 0-9 _ -` (e.g. `filter=category=books`, URL-encoded as
    `filter=category%3Dbooks`). Requires scope `resources:read`.

    Args:
        filter_ (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ProductList]
    """

    kwargs = _get_kwargs(
        filter_=filter_,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    filter_: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Problem | ProductList | None:
    """List catalog products

     Returns up to `limit` catalog products, optionally filtered. The `filter` grammar is
    `<field>=<value>` with one condition; filterable fields are `category` and `sku`, values are 1 to 64
    characters of `A-Z a-z 0-9 _ -` (e.g. `filter=category=books`, URL-encoded as
    `filter=category%3Dbooks`). Requires scope `resources:read`.

    Args:
        filter_ (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ProductList
    """

    return (
        await asyncio_detailed(
            client=client,
            filter_=filter_,
            limit=limit,
        )
    ).parsed
