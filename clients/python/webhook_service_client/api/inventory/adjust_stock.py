from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.insufficient_stock_problem import InsufficientStockProblem
from ...models.problem import Problem
from ...models.stock_adjustment import StockAdjustment
from ...models.stock_level import StockLevel
from ...types import UNSET, Response, Unset


def _get_kwargs(
    product_id: int,
    *,
    body: StockAdjustment,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/inventory/stock/{product_id}".format(
            product_id=quote(str(product_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> InsufficientStockProblem | Problem | StockLevel | None:
    if response.status_code == 200:
        response_200 = StockLevel.from_dict(response.json())

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
) -> Response[InsufficientStockProblem | Problem | StockLevel]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    product_id: int,
    *,
    client: AuthenticatedClient,
    body: StockAdjustment,
    idempotency_key: str | Unset = UNSET,
) -> Response[InsufficientStockProblem | Problem | StockLevel]:
    """Adjust a product's stock

     Adjusts one product's stock, e.g. after a delivery from a supplier or a stock count. Send
    exactly one of `quantity` (the new level, e.g. after counting) or `delta` (units added,
    or removed when negative), and/or `low_stock_threshold`. A change of the level emits
    `stock.updated` with reason `adjustment`, and `stock.low` when it falls to or below the
    threshold. A `delta` that would take the level below zero gives 409 with `short_items`
    and changes nothing; the change is applied to the level at that moment, so concurrent
    orders and adjustments are never lost. Send an `Idempotency-Key` to retry a `delta` safely.
    Unknown products give 404. Requires scope `admin`.

    Args:
        product_id (int):
        idempotency_key (str | Unset):
        body (StockAdjustment): A stock adjustment. At most one of `quantity` and `delta`; at
            least one field.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InsufficientStockProblem | Problem | StockLevel]
    """

    kwargs = _get_kwargs(
        product_id=product_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    product_id: int,
    *,
    client: AuthenticatedClient,
    body: StockAdjustment,
    idempotency_key: str | Unset = UNSET,
) -> InsufficientStockProblem | Problem | StockLevel | None:
    """Adjust a product's stock

     Adjusts one product's stock, e.g. after a delivery from a supplier or a stock count. Send
    exactly one of `quantity` (the new level, e.g. after counting) or `delta` (units added,
    or removed when negative), and/or `low_stock_threshold`. A change of the level emits
    `stock.updated` with reason `adjustment`, and `stock.low` when it falls to or below the
    threshold. A `delta` that would take the level below zero gives 409 with `short_items`
    and changes nothing; the change is applied to the level at that moment, so concurrent
    orders and adjustments are never lost. Send an `Idempotency-Key` to retry a `delta` safely.
    Unknown products give 404. Requires scope `admin`.

    Args:
        product_id (int):
        idempotency_key (str | Unset):
        body (StockAdjustment): A stock adjustment. At most one of `quantity` and `delta`; at
            least one field.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InsufficientStockProblem | Problem | StockLevel
    """

    return sync_detailed(
        product_id=product_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    product_id: int,
    *,
    client: AuthenticatedClient,
    body: StockAdjustment,
    idempotency_key: str | Unset = UNSET,
) -> Response[InsufficientStockProblem | Problem | StockLevel]:
    """Adjust a product's stock

     Adjusts one product's stock, e.g. after a delivery from a supplier or a stock count. Send
    exactly one of `quantity` (the new level, e.g. after counting) or `delta` (units added,
    or removed when negative), and/or `low_stock_threshold`. A change of the level emits
    `stock.updated` with reason `adjustment`, and `stock.low` when it falls to or below the
    threshold. A `delta` that would take the level below zero gives 409 with `short_items`
    and changes nothing; the change is applied to the level at that moment, so concurrent
    orders and adjustments are never lost. Send an `Idempotency-Key` to retry a `delta` safely.
    Unknown products give 404. Requires scope `admin`.

    Args:
        product_id (int):
        idempotency_key (str | Unset):
        body (StockAdjustment): A stock adjustment. At most one of `quantity` and `delta`; at
            least one field.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InsufficientStockProblem | Problem | StockLevel]
    """

    kwargs = _get_kwargs(
        product_id=product_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    product_id: int,
    *,
    client: AuthenticatedClient,
    body: StockAdjustment,
    idempotency_key: str | Unset = UNSET,
) -> InsufficientStockProblem | Problem | StockLevel | None:
    """Adjust a product's stock

     Adjusts one product's stock, e.g. after a delivery from a supplier or a stock count. Send
    exactly one of `quantity` (the new level, e.g. after counting) or `delta` (units added,
    or removed when negative), and/or `low_stock_threshold`. A change of the level emits
    `stock.updated` with reason `adjustment`, and `stock.low` when it falls to or below the
    threshold. A `delta` that would take the level below zero gives 409 with `short_items`
    and changes nothing; the change is applied to the level at that moment, so concurrent
    orders and adjustments are never lost. Send an `Idempotency-Key` to retry a `delta` safely.
    Unknown products give 404. Requires scope `admin`.

    Args:
        product_id (int):
        idempotency_key (str | Unset):
        body (StockAdjustment): A stock adjustment. At most one of `quantity` and `delta`; at
            least one field.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InsufficientStockProblem | Problem | StockLevel
    """

    return (
        await asyncio_detailed(
            product_id=product_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
