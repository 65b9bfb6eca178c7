from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.inbox_page import InboxPage
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    subscription_id: str,
    *,
    cursor: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}/inbox".format(
            subscription_id=quote(str(subscription_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> InboxPage | Problem | None:
    if response.status_code == 200:
        response_200 = InboxPage.from_dict(response.json())

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
) -> Response[InboxPage | Problem]:
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
    cursor: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> Response[InboxPage | Problem]:
    """Read a pull subscription's inbox

     The messages of a `pull` subscription waiting for their outcome and not yet due, oldest first (at
    most 100). Each is what an HTTP receiver would get, the exact signed body and its headers, with the
    time its outcome is due (`ack_by`). Every read returns every such message, including ones read
    before and not yet answered: deduplicate by `id`. `next_cursor` names the page returned; with
    `wait`, a read with it waits up to that many seconds until the page differs (a message comes, or one
    is answered or falls due), and a read without a cursor waits while there is none (a long poll). No
    time orders the cursor, so a message stored late is never skipped. 409 for a subscription whose
    destination is not `pull`; 429 naming `wait` when this API process already holds its limit of
    waiting reads (500, 4 per subscription): read without `wait` or retry later. Requires scope
    `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        cursor (str | Unset):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InboxPage | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        cursor=cursor,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> InboxPage | Problem | None:
    """Read a pull subscription's inbox

     The messages of a `pull` subscription waiting for their outcome and not yet due, oldest first (at
    most 100). Each is what an HTTP receiver would get, the exact signed body and its headers, with the
    time its outcome is due (`ack_by`). Every read returns every such message, including ones read
    before and not yet answered: deduplicate by `id`. `next_cursor` names the page returned; with
    `wait`, a read with it waits up to that many seconds until the page differs (a message comes, or one
    is answered or falls due), and a read without a cursor waits while there is none (a long poll). No
    time orders the cursor, so a message stored late is never skipped. 409 for a subscription whose
    destination is not `pull`; 429 naming `wait` when this API process already holds its limit of
    waiting reads (500, 4 per subscription): read without `wait` or retry later. Requires scope
    `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        cursor (str | Unset):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InboxPage | Problem
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
        cursor=cursor,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> Response[InboxPage | Problem]:
    """Read a pull subscription's inbox

     The messages of a `pull` subscription waiting for their outcome and not yet due, oldest first (at
    most 100). Each is what an HTTP receiver would get, the exact signed body and its headers, with the
    time its outcome is due (`ack_by`). Every read returns every such message, including ones read
    before and not yet answered: deduplicate by `id`. `next_cursor` names the page returned; with
    `wait`, a read with it waits up to that many seconds until the page differs (a message comes, or one
    is answered or falls due), and a read without a cursor waits while there is none (a long poll). No
    time orders the cursor, so a message stored late is never skipped. 409 for a subscription whose
    destination is not `pull`; 429 naming `wait` when this API process already holds its limit of
    waiting reads (500, 4 per subscription): read without `wait` or retry later. Requires scope
    `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        cursor (str | Unset):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InboxPage | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        cursor=cursor,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> InboxPage | Problem | None:
    """Read a pull subscription's inbox

     The messages of a `pull` subscription waiting for their outcome and not yet due, oldest first (at
    most 100). Each is what an HTTP receiver would get, the exact signed body and its headers, with the
    time its outcome is due (`ack_by`). Every read returns every such message, including ones read
    before and not yet answered: deduplicate by `id`. `next_cursor` names the page returned; with
    `wait`, a read with it waits up to that many seconds until the page differs (a message comes, or one
    is answered or falls due), and a read without a cursor waits while there is none (a long poll). No
    time orders the cursor, so a message stored late is never skipped. 409 for a subscription whose
    destination is not `pull`; 429 naming `wait` when this API process already holds its limit of
    waiting reads (500, 4 per subscription): read without `wait` or retry later. Requires scope
    `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        cursor (str | Unset):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InboxPage | Problem
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
            cursor=cursor,
            wait=wait,
        )
    ).parsed
