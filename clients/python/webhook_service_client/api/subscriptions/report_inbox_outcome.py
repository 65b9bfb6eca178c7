from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.inbox_outcome import InboxOutcome
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    subscription_id: str,
    message_id: str,
    *,
    body: InboxOutcome,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}/inbox/{message_id}/outcome".format(
            subscription_id=quote(str(subscription_id), safe=""),
            message_id=quote(str(message_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    subscription_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    body: InboxOutcome,
) -> Response[Any | Problem]:
    """Report a pull message's outcome

     The consumer's answer to one inbox message becomes the attempt's outcome, settled as an HTTP
    receiver's answer is (2xx delivered; 4xx but 408 and 429 stops, 410 also disables; anything else is
    retried on the subscription's schedule) and logged as the attempt. The first answer stored wins: the
    same answer reported again is 204 (a retried report); a different one is 409 naming `status_code`,
    and one after the deadline 409 naming `message_id` (the attempt was a `timeout`). API keys only.
    Requires scope `webhooks:write`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        message_id (str): An inbox message's id (one per attempt).
        body (InboxOutcome): The consumer's answer to a message.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        message_id=message_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    body: InboxOutcome,
) -> Any | Problem | None:
    """Report a pull message's outcome

     The consumer's answer to one inbox message becomes the attempt's outcome, settled as an HTTP
    receiver's answer is (2xx delivered; 4xx but 408 and 429 stops, 410 also disables; anything else is
    retried on the subscription's schedule) and logged as the attempt. The first answer stored wins: the
    same answer reported again is 204 (a retried report); a different one is 409 naming `status_code`,
    and one after the deadline 409 naming `message_id` (the attempt was a `timeout`). API keys only.
    Requires scope `webhooks:write`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        message_id (str): An inbox message's id (one per attempt).
        body (InboxOutcome): The consumer's answer to a message.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        subscription_id=subscription_id,
        message_id=message_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    body: InboxOutcome,
) -> Response[Any | Problem]:
    """Report a pull message's outcome

     The consumer's answer to one inbox message becomes the attempt's outcome, settled as an HTTP
    receiver's answer is (2xx delivered; 4xx but 408 and 429 stops, 410 also disables; anything else is
    retried on the subscription's schedule) and logged as the attempt. The first answer stored wins: the
    same answer reported again is 204 (a retried report); a different one is 409 naming `status_code`,
    and one after the deadline 409 naming `message_id` (the attempt was a `timeout`). API keys only.
    Requires scope `webhooks:write`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        message_id (str): An inbox message's id (one per attempt).
        body (InboxOutcome): The consumer's answer to a message.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        message_id=message_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    message_id: str,
    *,
    client: AuthenticatedClient,
    body: InboxOutcome,
) -> Any | Problem | None:
    """Report a pull message's outcome

     The consumer's answer to one inbox message becomes the attempt's outcome, settled as an HTTP
    receiver's answer is (2xx delivered; 4xx but 408 and 429 stops, 410 also disables; anything else is
    retried on the subscription's schedule) and logged as the attempt. The first answer stored wins: the
    same answer reported again is 204 (a retried report); a different one is 409 naming `status_code`,
    and one after the deadline 409 naming `message_id` (the attempt was a `timeout`). API keys only.
    Requires scope `webhooks:write`.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        message_id (str): An inbox message's id (one per attempt).
        body (InboxOutcome): The consumer's answer to a message.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            message_id=message_id,
            client=client,
            body=body,
        )
    ).parsed
