from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.insufficient_stock_problem import InsufficientStockProblem
from ...models.order import Order
from ...models.order_create import OrderCreate
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/orders/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> InsufficientStockProblem | Order | Problem | None:
    if response.status_code == 201:
        response_201 = Order.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = InsufficientStockProblem.from_dict(response.json())

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
) -> Response[InsufficientStockProblem | Order | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[InsufficientStockProblem | Order | Problem]:
    """Create an order

     Creates an order for a user from product ids and quantities. Unit prices and the total are taken
    from the catalog at creation time; the order starts in status `pending`. The order and its
    `order.created` event are stored together, so every created order is announced to subscribers
    exactly once. Creating the order reserves its units (each product's stock goes down by the ordered
    quantity and a `stock.updated` event (reason `order`) is emitted per product, plus `stock.low` when
    it falls to or below its threshold). Stock never goes below zero, however many orders arrive at
    once; when a product has fewer units than ordered, the answer is 409 with `short_items` naming each
    such product and the units available, and nothing is written (no order, no event, stock unchanged).
    Unknown users or products give 422. Requires scope `orders:write`.

    Args:
        idempotency_key (str | Unset):
        body (OrderCreate): A new order.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InsufficientStockProblem | Order | Problem]
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
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> InsufficientStockProblem | Order | Problem | None:
    """Create an order

     Creates an order for a user from product ids and quantities. Unit prices and the total are taken
    from the catalog at creation time; the order starts in status `pending`. The order and its
    `order.created` event are stored together, so every created order is announced to subscribers
    exactly once. Creating the order reserves its units (each product's stock goes down by the ordered
    quantity and a `stock.updated` event (reason `order`) is emitted per product, plus `stock.low` when
    it falls to or below its threshold). Stock never goes below zero, however many orders arrive at
    once; when a product has fewer units than ordered, the answer is 409 with `short_items` naming each
    such product and the units available, and nothing is written (no order, no event, stock unchanged).
    Unknown users or products give 422. Requires scope `orders:write`.

    Args:
        idempotency_key (str | Unset):
        body (OrderCreate): A new order.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InsufficientStockProblem | Order | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[InsufficientStockProblem | Order | Problem]:
    """Create an order

     Creates an order for a user from product ids and quantities. Unit prices and the total are taken
    from the catalog at creation time; the order starts in status `pending`. The order and its
    `order.created` event are stored together, so every created order is announced to subscribers
    exactly once. Creating the order reserves its units (each product's stock goes down by the ordered
    quantity and a `stock.updated` event (reason `order`) is emitted per product, plus `stock.low` when
    it falls to or below its threshold). Stock never goes below zero, however many orders arrive at
    once; when a product has fewer units than ordered, the answer is 409 with `short_items` naming each
    such product and the units available, and nothing is written (no order, no event, stock unchanged).
    Unknown users or products give 422. Requires scope `orders:write`.

    Args:
        idempotency_key (str | Unset):
        body (OrderCreate): A new order.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InsufficientStockProblem | Order | Problem]
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
    body: OrderCreate,
    idempotency_key: str | Unset = UNSET,
) -> InsufficientStockProblem | Order | Problem | None:
    """Create an order

     Creates an order for a user from product ids and quantities. Unit prices and the total are taken
    from the catalog at creation time; the order starts in status `pending`. The order and its
    `order.created` event are stored together, so every created order is announced to subscribers
    exactly once. Creating the order reserves its units (each product's stock goes down by the ordered
    quantity and a `stock.updated` event (reason `order`) is emitted per product, plus `stock.low` when
    it falls to or below its threshold). Stock never goes below zero, however many orders arrive at
    once; when a product has fewer units than ordered, the answer is 409 with `short_items` naming each
    such product and the units available, and nothing is written (no order, no event, stock unchanged).
    Unknown users or products give 422. Requires scope `orders:write`.

    Args:
        idempotency_key (str | Unset):
        body (OrderCreate): A new order.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InsufficientStockProblem | Order | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
