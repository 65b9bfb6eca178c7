from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_timeline import DeliveryTimeline
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    subscription_id: str,
    event_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}/events/{event_id}/delivery".format(
            subscription_id=quote(str(subscription_id), safe=""),
            event_id=quote(str(event_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeliveryTimeline | Problem | None:
    if response.status_code == 200:
        response_200 = DeliveryTimeline.from_dict(response.json())

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
) -> Response[DeliveryTimeline | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    subscription_id: str,
    event_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[DeliveryTimeline | Problem]:
    """Timeline of one event's delivery

     The timeline of this event's delivery to this subscription (its latest attempt series; a redelivery
    starts a new one), oldest first. It lists the attempts and every wait between them with its reason
    and its end (`backoff`, the retry schedule's wait n of m; `retry_after`, the receiver's longer
    `Retry-After`; `rate_limit` and `max_in_flight`, the subscription's throttles, which put an attempt
    off without counting it), and what happens next (the next attempt and when, or, for a subscription
    with `per_key` ordering, the earlier event of its key the first attempt waits for, or the final
    state (`delivered`, `failed`, `stopped`, or `cancelled` when the subscription was paused, disabled
    or deleted while a retry waited)). A delivery a pause held goes on after the resume as a new attempt
    series (`workflow_id` names its run); held past the hold limit, its last attempt has outcome
    `hold_expired`. Built from the attempt log and the subscription as it is now; `workflow_id` names
    the Temporal workflow whose history holds the same steps. An event never sent to this subscription,
    or another owner's subscription, is a 404. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryTimeline | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        event_id=event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    event_id: str,
    *,
    client: AuthenticatedClient,
) -> DeliveryTimeline | Problem | None:
    """Timeline of one event's delivery

     The timeline of this event's delivery to this subscription (its latest attempt series; a redelivery
    starts a new one), oldest first. It lists the attempts and every wait between them with its reason
    and its end (`backoff`, the retry schedule's wait n of m; `retry_after`, the receiver's longer
    `Retry-After`; `rate_limit` and `max_in_flight`, the subscription's throttles, which put an attempt
    off without counting it), and what happens next (the next attempt and when, or, for a subscription
    with `per_key` ordering, the earlier event of its key the first attempt waits for, or the final
    state (`delivered`, `failed`, `stopped`, or `cancelled` when the subscription was paused, disabled
    or deleted while a retry waited)). A delivery a pause held goes on after the resume as a new attempt
    series (`workflow_id` names its run); held past the hold limit, its last attempt has outcome
    `hold_expired`. Built from the attempt log and the subscription as it is now; `workflow_id` names
    the Temporal workflow whose history holds the same steps. An event never sent to this subscription,
    or another owner's subscription, is a 404. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryTimeline | Problem
    """

    return sync_detailed(
        subscription_id=subscription_id,
        event_id=event_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    event_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[DeliveryTimeline | Problem]:
    """Timeline of one event's delivery

     The timeline of this event's delivery to this subscription (its latest attempt series; a redelivery
    starts a new one), oldest first. It lists the attempts and every wait between them with its reason
    and its end (`backoff`, the retry schedule's wait n of m; `retry_after`, the receiver's longer
    `Retry-After`; `rate_limit` and `max_in_flight`, the subscription's throttles, which put an attempt
    off without counting it), and what happens next (the next attempt and when, or, for a subscription
    with `per_key` ordering, the earlier event of its key the first attempt waits for, or the final
    state (`delivered`, `failed`, `stopped`, or `cancelled` when the subscription was paused, disabled
    or deleted while a retry waited)). A delivery a pause held goes on after the resume as a new attempt
    series (`workflow_id` names its run); held past the hold limit, its last attempt has outcome
    `hold_expired`. Built from the attempt log and the subscription as it is now; `workflow_id` names
    the Temporal workflow whose history holds the same steps. An event never sent to this subscription,
    or another owner's subscription, is a 404. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryTimeline | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        event_id=event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    event_id: str,
    *,
    client: AuthenticatedClient,
) -> DeliveryTimeline | Problem | None:
    """Timeline of one event's delivery

     The timeline of this event's delivery to this subscription (its latest attempt series; a redelivery
    starts a new one), oldest first. It lists the attempts and every wait between them with its reason
    and its end (`backoff`, the retry schedule's wait n of m; `retry_after`, the receiver's longer
    `Retry-After`; `rate_limit` and `max_in_flight`, the subscription's throttles, which put an attempt
    off without counting it), and what happens next (the next attempt and when, or, for a subscription
    with `per_key` ordering, the earlier event of its key the first attempt waits for, or the final
    state (`delivered`, `failed`, `stopped`, or `cancelled` when the subscription was paused, disabled
    or deleted while a retry waited)). A delivery a pause held goes on after the resume as a new attempt
    series (`workflow_id` names its run); held past the hold limit, its last attempt has outcome
    `hold_expired`. Built from the attempt log and the subscription as it is now; `workflow_id` names
    the Temporal workflow whose history holds the same steps. An event never sent to this subscription,
    or another owner's subscription, is a 404. Requires scope `webhooks:read`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        event_id (str): Event identifier, `evt_` plus 16-32 alphanumerics; unique per event.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryTimeline | Problem
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            event_id=event_id,
            client=client,
        )
    ).parsed
