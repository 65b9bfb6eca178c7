from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.rotated_secret import RotatedSecret
from ...models.secret_rotation import SecretRotation
from ...types import UNSET, Response, Unset


def _get_kwargs(
    subscription_id: str,
    *,
    body: SecretRotation | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/webhooks/v1/subscriptions/{subscription_id}/rotate-secret".format(
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
) -> Problem | RotatedSecret | None:
    if response.status_code == 200:
        response_200 = RotatedSecret.from_dict(response.json())

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
) -> Response[Problem | RotatedSecret]:
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
    body: SecretRotation | Unset = UNSET,
) -> Response[Problem | RotatedSecret]:
    """Rotate the signing secret

     Generates a new signing secret (an `ed25519` subscription, a new key pair) and returns it once (for
    `ed25519`, the new public key, which is also on every read). Every delivery attempt that starts at
    least `SUBSCRIPTION_CACHE_TTL` (1 s by default) from now is signed with the new key; until
    `previous_secret_expires_at` the old one keeps signing as a second signature (an extra `v1,` or
    `v1a,` entry in `webhook-signature`, and for HMAC the `X-Signature-Previous` header), so receivers
    can switch over without rejecting deliveries. `expire_previous_in_seconds` 0 retires the old key at
    once. `signature` switches the scheme (`hmac-sha256` ⇄ `ed25519`); a switch is a rotation, with the
    same overlap, during which both schemes sign. Requires scope `webhooks:write`. The caller must hold
    every scope creating the subscription would need (the scopes of each of its event types, and for a
    subscription made with an admin key (it receives every owner's events) the `admin` scope or an
    administrator portal session); else 403 naming what is missing, and nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        body (SecretRotation | Unset): Options for a secret rotation.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RotatedSecret]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: SecretRotation | Unset = UNSET,
) -> Problem | RotatedSecret | None:
    """Rotate the signing secret

     Generates a new signing secret (an `ed25519` subscription, a new key pair) and returns it once (for
    `ed25519`, the new public key, which is also on every read). Every delivery attempt that starts at
    least `SUBSCRIPTION_CACHE_TTL` (1 s by default) from now is signed with the new key; until
    `previous_secret_expires_at` the old one keeps signing as a second signature (an extra `v1,` or
    `v1a,` entry in `webhook-signature`, and for HMAC the `X-Signature-Previous` header), so receivers
    can switch over without rejecting deliveries. `expire_previous_in_seconds` 0 retires the old key at
    once. `signature` switches the scheme (`hmac-sha256` ⇄ `ed25519`); a switch is a rotation, with the
    same overlap, during which both schemes sign. Requires scope `webhooks:write`. The caller must hold
    every scope creating the subscription would need (the scopes of each of its event types, and for a
    subscription made with an admin key (it receives every owner's events) the `admin` scope or an
    administrator portal session); else 403 naming what is missing, and nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        body (SecretRotation | Unset): Options for a secret rotation.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RotatedSecret
    """

    return sync_detailed(
        subscription_id=subscription_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: SecretRotation | Unset = UNSET,
) -> Response[Problem | RotatedSecret]:
    """Rotate the signing secret

     Generates a new signing secret (an `ed25519` subscription, a new key pair) and returns it once (for
    `ed25519`, the new public key, which is also on every read). Every delivery attempt that starts at
    least `SUBSCRIPTION_CACHE_TTL` (1 s by default) from now is signed with the new key; until
    `previous_secret_expires_at` the old one keeps signing as a second signature (an extra `v1,` or
    `v1a,` entry in `webhook-signature`, and for HMAC the `X-Signature-Previous` header), so receivers
    can switch over without rejecting deliveries. `expire_previous_in_seconds` 0 retires the old key at
    once. `signature` switches the scheme (`hmac-sha256` ⇄ `ed25519`); a switch is a rotation, with the
    same overlap, during which both schemes sign. Requires scope `webhooks:write`. The caller must hold
    every scope creating the subscription would need (the scopes of each of its event types, and for a
    subscription made with an admin key (it receives every owner's events) the `admin` scope or an
    administrator portal session); else 403 naming what is missing, and nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        body (SecretRotation | Unset): Options for a secret rotation.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RotatedSecret]
    """

    kwargs = _get_kwargs(
        subscription_id=subscription_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    subscription_id: str,
    *,
    client: AuthenticatedClient,
    body: SecretRotation | Unset = UNSET,
) -> Problem | RotatedSecret | None:
    """Rotate the signing secret

     Generates a new signing secret (an `ed25519` subscription, a new key pair) and returns it once (for
    `ed25519`, the new public key, which is also on every read). Every delivery attempt that starts at
    least `SUBSCRIPTION_CACHE_TTL` (1 s by default) from now is signed with the new key; until
    `previous_secret_expires_at` the old one keeps signing as a second signature (an extra `v1,` or
    `v1a,` entry in `webhook-signature`, and for HMAC the `X-Signature-Previous` header), so receivers
    can switch over without rejecting deliveries. `expire_previous_in_seconds` 0 retires the old key at
    once. `signature` switches the scheme (`hmac-sha256` ⇄ `ed25519`); a switch is a rotation, with the
    same overlap, during which both schemes sign. Requires scope `webhooks:write`. The caller must hold
    every scope creating the subscription would need (the scopes of each of its event types, and for a
    subscription made with an admin key (it receives every owner's events) the `admin` scope or an
    administrator portal session); else 403 naming what is missing, and nothing is done.

    Args:
        subscription_id (str): Subscription identifier, `sub_` plus 16-32 alphanumerics.
        body (SecretRotation | Unset): Options for a secret rotation.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RotatedSecret
    """

    return (
        await asyncio_detailed(
            subscription_id=subscription_id,
            client=client,
            body=body,
        )
    ).parsed
