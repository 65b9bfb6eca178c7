from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.event_accepted import EventAccepted
from ...models.problem import Problem
from ...models.test_event_request import TestEventRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    subscription_id: str,
    *,
    body: TestEventRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}/test".format(
            subscription_id=quote(str(subscription_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EventAccepted | Problem | None:
    if response.status_code == 202:
        response_202 = EventAccepted.from_dict(response.json())

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
) -> Response[EventAccepted | Problem]:
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
    body: TestEventRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[EventAccepted | Problem]:
    """Send a test event

     Emits a `webhook.test` event and delivers it to this subscription only, whatever its `events` list,
    using its envelope version, signature and the normal retry schedule. With a body naming another
    `type` (one of the subscription's `events`, else 422 naming `type`), it sends a sample event of that
    type instead, its `data` made up (ids that name no real resource), to this subscription only. The
    response returns as soon as the event is stored; follow the outcome with the attempts endpoint. A
    paused or disabled subscription gives 409 (activate it first). The body is optional. Requires scope
    `webhooks:write`. The caller must hold every scope creating the subscription would need (the scopes
    of each of its event types, and for a subscription made with an admin key (it receives every owner's
    events) the `admin` scope or an administrator portal session); else 403 naming what is missing, and
    nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        idempotency_key (str | Unset):
        body (TestEventRequest | Unset): What test event to send; an empty body (or none) sends
            `webhook.test`. Example: {'type': 'order.created'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventAccepted | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: TestEventRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> EventAccepted | Problem | None:
    """Send a test event

     Emits a `webhook.test` event and delivers it to this subscription only, whatever its `events` list,
    using its envelope version, signature and the normal retry schedule. With a body naming another
    `type` (one of the subscription's `events`, else 422 naming `type`), it sends a sample event of that
    type instead, its `data` made up (ids that name no real resource), to this subscription only. The
    response returns as soon as the event is stored; follow the outcome with the attempts endpoint. A
    paused or disabled subscription gives 409 (activate it first). The body is optional. Requires scope
    `webhooks:write`. The caller must hold every scope creating the subscription would need (the scopes
    of each of its event types, and for a subscription made with an admin key (it receives every owner's
    events) the `admin` scope or an administrator portal session); else 403 naming what is missing, and
    nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        idempotency_key (str | Unset):
        body (TestEventRequest | Unset): What test event to send; an empty body (or none) sends
            `webhook.test`. Example: {'type': 'order.created'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventAccepted | Problem
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: TestEventRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[EventAccepted | Problem]:
    """Send a test event

     Emits a `webhook.test` event and delivers it to this subscription only, whatever its `events` list,
    using its envelope version, signature and the normal retry schedule. With a body naming another
    `type` (one of the subscription's `events`, else 422 naming `type`), it sends a sample event of that
    type instead, its `data` made up (ids that name no real resource), to this subscription only. The
    response returns as soon as the event is stored; follow the outcome with the attempts endpoint. A
    paused or disabled subscription gives 409 (activate it first). The body is optional. Requires scope
    `webhooks:write`. The caller must hold every scope creating the subscription would need (the scopes
    of each of its event types, and for a subscription made with an admin key (it receives every owner's
    events) the `admin` scope or an administrator portal session); else 403 naming what is missing, and
    nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        idempotency_key (str | Unset):
        body (TestEventRequest | Unset): What test event to send; an empty body (or none) sends
            `webhook.test`. Example: {'type': 'order.created'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventAccepted | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: TestEventRequest | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> EventAccepted | Problem | None:
    """Send a test event

     Emits a `webhook.test` event and delivers it to this subscription only, whatever its `events` list,
    using its envelope version, signature and the normal retry schedule. With a body naming another
    `type` (one of the subscription's `events`, else 422 naming `type`), it sends a sample event of that
    type instead, its `data` made up (ids that name no real resource), to this subscription only. The
    response returns as soon as the event is stored; follow the outcome with the attempts endpoint. A
    paused or disabled subscription gives 409 (activate it first). The body is optional. Requires scope
    `webhooks:write`. The caller must hold every scope creating the subscription would need (the scopes
    of each of its event types, and for a subscription made with an admin key (it receives every owner's
    events) the `admin` scope or an administrator portal session); else 403 naming what is missing, and
    nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        idempotency_key (str | Unset):
        body (TestEventRequest | Unset): What test event to send; an empty body (or none) sends
            `webhook.test`. Example: {'type': 'order.created'}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventAccepted | Problem
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
