from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.order import Order
from ...models.order_update import OrderUpdate
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    order_id: int,
    *,
    body: OrderUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/orders/{order_id}".format(
            order_id=quote(str(order_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Order | Problem | None:
    if response.status_code == 200:
        response_200 = Order.from_dict(response.json())

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
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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
) -> Response[Order | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    order_id: int,
    *,
    client: AuthenticatedClient,
    body: OrderUpdate,
) -> Response[Order | Problem]:
    """Change an order's status

     Moves an order to a new status (see `OrderStatus` for the allowed moves; others give 409). The
    change and its `order.updated` event are stored together. Of concurrent changes of one order from
    the same status exactly one is applied; the others change nothing and give 409 when the winning
    change has landed (read the order again, then retry), or 503 with `Retry-After` while it has not
    (send the same request again after it). A change the service was too slow to write in time is also a
    503 with `Retry-After`, nothing written. Cancelling returns the order's units to stock, exactly once
    however often it is asked (each product emits `stock.updated` with reason `cancellation`). Setting
    the status the order already has is a no-op that returns the order and emits nothing. Orders another
    owner's key created give 404 (an `admin` key changes every order). Requires scope `orders:write`.

    Args:
        order_id (int):
        body (OrderUpdate): A status change.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Order | Problem]
    """

    kwargs = _get_kwargs(
        order_id=order_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    order_id: int,
    *,
    client: AuthenticatedClient,
    body: OrderUpdate,
) -> Order | Problem | None:
    """Change an order's status

     Moves an order to a new status (see `OrderStatus` for the allowed moves; others give 409). The
    change and its `order.updated` event are stored together. Of concurrent changes of one order from
    the same status exactly one is applied; the others change nothing and give 409 when the winning
    change has landed (read the order again, then retry), or 503 with `Retry-After` while it has not
    (send the same request again after it). A change the service was too slow to write in time is also a
    503 with `Retry-After`, nothing written. Cancelling returns the order's units to stock, exactly once
    however often it is asked (each product emits `stock.updated` with reason `cancellation`). Setting
    the status the order already has is a no-op that returns the order and emits nothing. Orders another
    owner's key created give 404 (an `admin` key changes every order). Requires scope `orders:write`.

    Args:
        order_id (int):
        body (OrderUpdate): A status change.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Order | Problem
    """

    return sync_detailed(
        order_id=order_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    order_id: int,
    *,
    client: AuthenticatedClient,
    body: OrderUpdate,
) -> Response[Order | Problem]:
    """Change an order's status

     Moves an order to a new status (see `OrderStatus` for the allowed moves; others give 409). The
    change and its `order.updated` event are stored together. Of concurrent changes of one order from
    the same status exactly one is applied; the others change nothing and give 409 when the winning
    change has landed (read the order again, then retry), or 503 with `Retry-After` while it has not
    (send the same request again after it). A change the service was too slow to write in time is also a
    503 with `Retry-After`, nothing written. Cancelling returns the order's units to stock, exactly once
    however often it is asked (each product emits `stock.updated` with reason `cancellation`). Setting
    the status the order already has is a no-op that returns the order and emits nothing. Orders another
    owner's key created give 404 (an `admin` key changes every order). Requires scope `orders:write`.

    Args:
        order_id (int):
        body (OrderUpdate): A status change.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Order | Problem]
    """

    kwargs = _get_kwargs(
        order_id=order_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    order_id: int,
    *,
    client: AuthenticatedClient,
    body: OrderUpdate,
) -> Order | Problem | None:
    """Change an order's status

     Moves an order to a new status (see `OrderStatus` for the allowed moves; others give 409). The
    change and its `order.updated` event are stored together. Of concurrent changes of one order from
    the same status exactly one is applied; the others change nothing and give 409 when the winning
    change has landed (read the order again, then retry), or 503 with `Retry-After` while it has not
    (send the same request again after it). A change the service was too slow to write in time is also a
    503 with `Retry-After`, nothing written. Cancelling returns the order's units to stock, exactly once
    however often it is asked (each product emits `stock.updated` with reason `cancellation`). Setting
    the status the order already has is a no-op that returns the order and emits nothing. Orders another
    owner's key created give 404 (an `admin` key changes every order). Requires scope `orders:write`.

    Args:
        order_id (int):
        body (OrderUpdate): A status change.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Order | Problem
    """

    return (
        await asyncio_detailed(
            order_id=order_id,
            client=client,
            body=body,
        )
    ).parsed
