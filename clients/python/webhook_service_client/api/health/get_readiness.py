from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.readiness import Readiness
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/readyz",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Readiness | None:
    if response.status_code == 200:
        response_200 = Readiness.from_dict(response.json())

        return response_200

    if response.status_code == 503:
        response_503 = Readiness.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Readiness]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Readiness]:
    """Readiness probe

     Reports whether the dependencies needed to serve traffic (MongoDB and Temporal) are reachable and
    whether this process can take more requests (`admission`). Returns 200 with `status` `ready` when
    all dependency checks are `up` and admission is `open`, otherwise 503 with the same body shape and
    `status` `unavailable`. No authentication and no scope required.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Readiness]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Readiness | None:
    """Readiness probe

     Reports whether the dependencies needed to serve traffic (MongoDB and Temporal) are reachable and
    whether this process can take more requests (`admission`). Returns 200 with `status` `ready` when
    all dependency checks are `up` and admission is `open`, otherwise 503 with the same body shape and
    `status` `unavailable`. No authentication and no scope required.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Readiness
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Readiness]:
    """Readiness probe

     Reports whether the dependencies needed to serve traffic (MongoDB and Temporal) are reachable and
    whether this process can take more requests (`admission`). Returns 200 with `status` `ready` when
    all dependency checks are `up` and admission is `open`, otherwise 503 with the same body shape and
    `status` `unavailable`. No authentication and no scope required.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Readiness]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Readiness | None:
    """Readiness probe

     Reports whether the dependencies needed to serve traffic (MongoDB and Temporal) are reachable and
    whether this process can take more requests (`admission`). Returns 200 with `status` `ready` when
    all dependency checks are `up` and admission is `open`, otherwise 503 with the same body shape and
    `status` `unavailable`. No authentication and no scope required.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Readiness
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
