from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.redelivery_accepted import RedeliveryAccepted
from ...models.redelivery_request import RedeliveryRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    event_id: str,
    *,
    body: RedeliveryRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/webhooks/v1/events/{event_id}/redeliver".format(
            event_id=quote(str(event_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RedeliveryAccepted | None:
    if response.status_code == 202:
        response_202 = RedeliveryAccepted.from_dict(response.json())

        return response_202

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
) -> Response[Problem | RedeliveryAccepted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,
    body: RedeliveryRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | RedeliveryAccepted]:
    """Redeliver an event

     Starts a fresh delivery (with a full retry schedule) of a stored event, with the same event `id` so
    receivers can drop it if they already processed it. Without a body, or without `subscription_id`,
    the event is redelivered to every existing subscription that it targeted; with `subscription_id`,
    only to that one. Deleted subscriptions are skipped, and so are those the caller could not create
    (the scopes of their event types; `admin` for an admin key's all-owners subscription), with a 403
    naming what is missing when that leaves none. Requires scope `webhooks:write`, and the scopes the
    event type's `required_scopes` (event catalogue) names, since it sends the event's data again (403
    naming the missing scope).

    Args:
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        idempotency_key (str | Unset):
        body (RedeliveryRequest | Unset): Which subscription to redeliver to; all targeted
            subscriptions when omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RedeliveryAccepted]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    event_id: str,
    *,
    client: AuthenticatedClient,
    body: RedeliveryRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | RedeliveryAccepted | None:
    """Redeliver an event

     Starts a fresh delivery (with a full retry schedule) of a stored event, with the same event `id` so
    receivers can drop it if they already processed it. Without a body, or without `subscription_id`,
    the event is redelivered to every existing subscription that it targeted; with `subscription_id`,
    only to that one. Deleted subscriptions are skipped, and so are those the caller could not create
    (the scopes of their event types; `admin` for an admin key's all-owners subscription), with a 403
    naming what is missing when that leaves none. Requires scope `webhooks:write`, and the scopes the
    event type's `required_scopes` (event catalogue) names, since it sends the event's data again (403
    naming the missing scope).

    Args:
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        idempotency_key (str | Unset):
        body (RedeliveryRequest | Unset): Which subscription to redeliver to; all targeted
            subscriptions when omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RedeliveryAccepted
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,
    body: RedeliveryRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | RedeliveryAccepted]:
    """Redeliver an event

     Starts a fresh delivery (with a full retry schedule) of a stored event, with the same event `id` so
    receivers can drop it if they already processed it. Without a body, or without `subscription_id`,
    the event is redelivered to every existing subscription that it targeted; with `subscription_id`,
    only to that one. Deleted subscriptions are skipped, and so are those the caller could not create
    (the scopes of their event types; `admin` for an admin key's all-owners subscription), with a 403
    naming what is missing when that leaves none. Requires scope `webhooks:write`, and the scopes the
    event type's `required_scopes` (event catalogue) names, since it sends the event's data again (403
    naming the missing scope).

    Args:
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        idempotency_key (str | Unset):
        body (RedeliveryRequest | Unset): Which subscription to redeliver to; all targeted
            subscriptions when omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RedeliveryAccepted]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: str,
    *,
    client: AuthenticatedClient,
    body: RedeliveryRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | RedeliveryAccepted | None:
    """Redeliver an event

     Starts a fresh delivery (with a full retry schedule) of a stored event, with the same event `id` so
    receivers can drop it if they already processed it. Without a body, or without `subscription_id`,
    the event is redelivered to every existing subscription that it targeted; with `subscription_id`,
    only to that one. Deleted subscriptions are skipped, and so are those the caller could not create
    (the scopes of their event types; `admin` for an admin key's all-owners subscription), with a 403
    naming what is missing when that leaves none. Requires scope `webhooks:write`, and the scopes the
    event type's `required_scopes` (event catalogue) names, since it sends the event's data again (403
    naming the missing scope).

    Args:
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.
        idempotency_key (str | Unset):
        body (RedeliveryRequest | Unset): Which subscription to redeliver to; all targeted
            subscriptions when omitted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RedeliveryAccepted
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
