from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.webhook_meta import WebhookMeta
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/meta",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | WebhookMeta | None:
    if response.status_code == 200:
        response_200 = WebhookMeta.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[Problem | WebhookMeta]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | WebhookMeta]:
    """Where deliveries come from

     The addresses this service's webhook deliveries (and administrator alert POSTs) leave
    from, as CIDR ranges, so receivers can allow-list them in a firewall or with the receiver
    kit's `allowedSources`, like the `hooks` list of GitHub's `GET /meta`. The operator fixes
    them with `DELIVERY_SOURCE_ADDRESS`. When none is fixed, `delivery_source_addresses` is
    empty and `delivery_source_addresses_fixed` is `false`: deliveries come from whatever
    address the workers' hosts use, which may change, so do not restrict by address. An
    allow-list only adds to the signature check; it never replaces it.

    No authentication and no scope required, as on GitHub: the addresses are no secret (every
    receiver sees them on each delivery) and receivers configure firewalls before, or without,
    holding an API key. Answers may be cached for 5 minutes; a change takes effect when the
    service restarts with the new value.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebhookMeta]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | WebhookMeta | None:
    """Where deliveries come from

     The addresses this service's webhook deliveries (and administrator alert POSTs) leave
    from, as CIDR ranges, so receivers can allow-list them in a firewall or with the receiver
    kit's `allowedSources`, like the `hooks` list of GitHub's `GET /meta`. The operator fixes
    them with `DELIVERY_SOURCE_ADDRESS`. When none is fixed, `delivery_source_addresses` is
    empty and `delivery_source_addresses_fixed` is `false`: deliveries come from whatever
    address the workers' hosts use, which may change, so do not restrict by address. An
    allow-list only adds to the signature check; it never replaces it.

    No authentication and no scope required, as on GitHub: the addresses are no secret (every
    receiver sees them on each delivery) and receivers configure firewalls before, or without,
    holding an API key. Answers may be cached for 5 minutes; a change takes effect when the
    service restarts with the new value.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebhookMeta
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | WebhookMeta]:
    """Where deliveries come from

     The addresses this service's webhook deliveries (and administrator alert POSTs) leave
    from, as CIDR ranges, so receivers can allow-list them in a firewall or with the receiver
    kit's `allowedSources`, like the `hooks` list of GitHub's `GET /meta`. The operator fixes
    them with `DELIVERY_SOURCE_ADDRESS`. When none is fixed, `delivery_source_addresses` is
    empty and `delivery_source_addresses_fixed` is `false`: deliveries come from whatever
    address the workers' hosts use, which may change, so do not restrict by address. An
    allow-list only adds to the signature check; it never replaces it.

    No authentication and no scope required, as on GitHub: the addresses are no secret (every
    receiver sees them on each delivery) and receivers configure firewalls before, or without,
    holding an API key. Answers may be cached for 5 minutes; a change takes effect when the
    service restarts with the new value.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebhookMeta]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | WebhookMeta | None:
    """Where deliveries come from

     The addresses this service's webhook deliveries (and administrator alert POSTs) leave
    from, as CIDR ranges, so receivers can allow-list them in a firewall or with the receiver
    kit's `allowedSources`, like the `hooks` list of GitHub's `GET /meta`. The operator fixes
    them with `DELIVERY_SOURCE_ADDRESS`. When none is fixed, `delivery_source_addresses` is
    empty and `delivery_source_addresses_fixed` is `false`: deliveries come from whatever
    address the workers' hosts use, which may change, so do not restrict by address. An
    allow-list only adds to the signature check; it never replaces it.

    No authentication and no scope required, as on GitHub: the addresses are no secret (every
    receiver sees them on each delivery) and receivers configure firewalls before, or without,
    holding an API key. Answers may be cached for 5 minutes; a change takes effect when the
    service restarts with the new value.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebhookMeta
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
