from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_attempt_list import DeliveryAttemptList
from ...models.delivery_attempt_state import DeliveryAttemptState
from ...models.delivery_outcome import DeliveryOutcome
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    subscription_id: str,
    *,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    outcome: DeliveryOutcome | Unset = UNSET,
    state: DeliveryAttemptState | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    params["event_id"] = event_id

    json_outcome: str | Unset = UNSET
    if not isinstance(outcome, Unset):
        json_outcome = outcome.value

    params["outcome"] = json_outcome

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}/attempts".format(
            subscription_id=quote(str(subscription_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeliveryAttemptList | Problem | None:
    if response.status_code == 200:
        response_200 = DeliveryAttemptList.from_dict(response.json())

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
) -> Response[DeliveryAttemptList | Problem]:
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
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    outcome: DeliveryOutcome | Unset = UNSET,
    state: DeliveryAttemptState | Unset = UNSET,
) -> Response[DeliveryAttemptList | Problem]:
    """List delivery attempts

     Lists the logged delivery attempts of this subscription, newest first, optionally restricted to one
    event. Every attempt is recorded with its outcome, HTTP status, duration and, when a retry is
    scheduled, the time of the next attempt. A receiver may echo the payload it got, so
    `response_excerpt` is shown only to a caller who may read the data of every event type the
    subscription receives (their `required_scopes`, and `admin` for an admin key's all-owners
    subscription). Paginated with `limit` and `cursor`. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        event_id (str | Unset): Event identifier, `evt_` plus 16-32 alphanumerics; unique per
            event.
        outcome (DeliveryOutcome | Unset): Outcome of one attempt: `delivered` (2xx), `http_error`
            (non-2xx answer), `timeout` (no answer in time),
            `network_error` (DNS, connection, TLS or egress proxy failure, or the subscription's OAuth
            2.0 token endpoint failing; `error` says which), `blocked` (the URL resolved to a
            disallowed address; not sent), `rejected` (a broker destination refused the message for
            good: unroutable, no such exchange, topic or JetStream stream, a Redis key that is not a
            stream, no such SQS queue, a message SQS refuses, access refused or wrong credentials;
            `error` says which; stops the delivery like a 4xx), `hold_expired` (not sent: the
            subscription was paused and held the delivery longer than `SUBSCRIPTION_HOLD_MAX`; state
            `failed`, one alert for the subscription).
        state (DeliveryAttemptState | Unset): Where an event's delivery to a subscription stood
            after an attempt: `delivered` (2xx),
            `retrying` (another attempt follows at `next_attempt_at`), `failed` (attempts ran out; an
            administrator was alerted), `stopped` (a 4xx other than 408/429, or a refused URL: no
            retry).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryAttemptList | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        limit=limit,
        cursor=cursor,
        event_id=event_id,
        outcome=outcome,
        state=state,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    outcome: DeliveryOutcome | Unset = UNSET,
    state: DeliveryAttemptState | Unset = UNSET,
) -> DeliveryAttemptList | Problem | None:
    """List delivery attempts

     Lists the logged delivery attempts of this subscription, newest first, optionally restricted to one
    event. Every attempt is recorded with its outcome, HTTP status, duration and, when a retry is
    scheduled, the time of the next attempt. A receiver may echo the payload it got, so
    `response_excerpt` is shown only to a caller who may read the data of every event type the
    subscription receives (their `required_scopes`, and `admin` for an admin key's all-owners
    subscription). Paginated with `limit` and `cursor`. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        event_id (str | Unset): Event identifier, `evt_` plus 16-32 alphanumerics; unique per
            event.
        outcome (DeliveryOutcome | Unset): Outcome of one attempt: `delivered` (2xx), `http_error`
            (non-2xx answer), `timeout` (no answer in time),
            `network_error` (DNS, connection, TLS or egress proxy failure, or the subscription's OAuth
            2.0 token endpoint failing; `error` says which), `blocked` (the URL resolved to a
            disallowed address; not sent), `rejected` (a broker destination refused the message for
            good: unroutable, no such exchange, topic or JetStream stream, a Redis key that is not a
            stream, no such SQS queue, a message SQS refuses, access refused or wrong credentials;
            `error` says which; stops the delivery like a 4xx), `hold_expired` (not sent: the
            subscription was paused and held the delivery longer than `SUBSCRIPTION_HOLD_MAX`; state
            `failed`, one alert for the subscription).
        state (DeliveryAttemptState | Unset): Where an event's delivery to a subscription stood
            after an attempt: `delivered` (2xx),
            `retrying` (another attempt follows at `next_attempt_at`), `failed` (attempts ran out; an
            administrator was alerted), `stopped` (a 4xx other than 408/429, or a refused URL: no
            retry).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryAttemptList | Problem
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
        limit=limit,
        cursor=cursor,
        event_id=event_id,
        outcome=outcome,
        state=state,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    outcome: DeliveryOutcome | Unset = UNSET,
    state: DeliveryAttemptState | Unset = UNSET,
) -> Response[DeliveryAttemptList | Problem]:
    """List delivery attempts

     Lists the logged delivery attempts of this subscription, newest first, optionally restricted to one
    event. Every attempt is recorded with its outcome, HTTP status, duration and, when a retry is
    scheduled, the time of the next attempt. A receiver may echo the payload it got, so
    `response_excerpt` is shown only to a caller who may read the data of every event type the
    subscription receives (their `required_scopes`, and `admin` for an admin key's all-owners
    subscription). Paginated with `limit` and `cursor`. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        event_id (str | Unset): Event identifier, `evt_` plus 16-32 alphanumerics; unique per
            event.
        outcome (DeliveryOutcome | Unset): Outcome of one attempt: `delivered` (2xx), `http_error`
            (non-2xx answer), `timeout` (no answer in time),
            `network_error` (DNS, connection, TLS or egress proxy failure, or the subscription's OAuth
            2.0 token endpoint failing; `error` says which), `blocked` (the URL resolved to a
            disallowed address; not sent), `rejected` (a broker destination refused the message for
            good: unroutable, no such exchange, topic or JetStream stream, a Redis key that is not a
            stream, no such SQS queue, a message SQS refuses, access refused or wrong credentials;
            `error` says which; stops the delivery like a 4xx), `hold_expired` (not sent: the
            subscription was paused and held the delivery longer than `SUBSCRIPTION_HOLD_MAX`; state
            `failed`, one alert for the subscription).
        state (DeliveryAttemptState | Unset): Where an event's delivery to a subscription stood
            after an attempt: `delivered` (2xx),
            `retrying` (another attempt follows at `next_attempt_at`), `failed` (attempts ran out; an
            administrator was alerted), `stopped` (a 4xx other than 408/429, or a refused URL: no
            retry).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryAttemptList | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        limit=limit,
        cursor=cursor,
        event_id=event_id,
        outcome=outcome,
        state=state,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
    event_id: str | Unset = UNSET,
    outcome: DeliveryOutcome | Unset = UNSET,
    state: DeliveryAttemptState | Unset = UNSET,
) -> DeliveryAttemptList | Problem | None:
    """List delivery attempts

     Lists the logged delivery attempts of this subscription, newest first, optionally restricted to one
    event. Every attempt is recorded with its outcome, HTTP status, duration and, when a retry is
    scheduled, the time of the next attempt. A receiver may echo the payload it got, so
    `response_excerpt` is shown only to a caller who may read the data of every event type the
    subscription receives (their `required_scopes`, and `admin` for an admin key's all-owners
    subscription). Paginated with `limit` and `cursor`. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):
        event_id (str | Unset): Event identifier, `evt_` plus 16-32 alphanumerics; unique per
            event.
        outcome (DeliveryOutcome | Unset): Outcome of one attempt: `delivered` (2xx), `http_error`
            (non-2xx answer), `timeout` (no answer in time),
            `network_error` (DNS, connection, TLS or egress proxy failure, or the subscription's OAuth
            2.0 token endpoint failing; `error` says which), `blocked` (the URL resolved to a
            disallowed address; not sent), `rejected` (a broker destination refused the message for
            good: unroutable, no such exchange, topic or JetStream stream, a Redis key that is not a
            stream, no such SQS queue, a message SQS refuses, access refused or wrong credentials;
            `error` says which; stops the delivery like a 4xx), `hold_expired` (not sent: the
            subscription was paused and held the delivery longer than `SUBSCRIPTION_HOLD_MAX`; state
            `failed`, one alert for the subscription).
        state (DeliveryAttemptState | Unset): Where an event's delivery to a subscription stood
            after an attempt: `delivered` (2xx),
            `retrying` (another attempt follows at `next_attempt_at`), `failed` (attempts ran out; an
            administrator was alerted), `stopped` (a 4xx other than 408/429, or a refused URL: no
            retry).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryAttemptList | Problem
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
            limit=limit,
            cursor=cursor,
            event_id=event_id,
            outcome=outcome,
            state=state,
        )
    ).parsed
