"""Verifying a delivery: Standard Webhooks ``v1`` (HMAC) and ``v1a`` (Ed25519), or ``X-Signature``."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from standardwebhooks import Webhook

PUBLIC_KEY_PREFIX = "whpk_"
SECRET_PREFIX = "whsec_"
# Standard base64 with at least one character before the padding: at least one byte.
_PADDED_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
# ASCII digits only: str.isdigit() and int() also take other scripts' digits and superscripts.
_TIMESTAMP = re.compile(r"[0-9]{1,18}")
DEFAULT_TOLERANCE = 300
# Each v1a entry costs an Ed25519 verification; the spec allows ignoring extras.
MAX_ASYMMETRIC_ENTRIES = 8

Scheme = Literal["standard-webhooks", "x-signature"]


class WebhookVerificationError(Exception):
    """The delivery is not authentic or not fresh: answer 401 and process nothing."""


def _header(headers: Mapping[str, Any], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            if isinstance(value, (list, tuple)):
                return str(value[0]) if value else None
            return str(value)
    return None


def _check_secret(key: str) -> None:
    """Refuse what is not ``whsec_`` + standard, padded base64 of at least one byte.

    An empty key (an unset variable) or ``whsec_`` alone would otherwise make an empty HMAC key.
    """
    encoded = key.removeprefix(SECRET_PREFIX)
    if not encoded:
        raise WebhookVerificationError("empty secret: pass the subscription's whsec_ secret")
    if len(encoded) % 4 or not _PADDED_BASE64.fullmatch(encoded):
        raise WebhookVerificationError("a secret is whsec_ + standard, padded base64")


def _public_key(key: str) -> Ed25519PublicKey:
    try:
        raw = base64.b64decode(key[len(PUBLIC_KEY_PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != 32:
        raise WebhookVerificationError("an Ed25519 public key is whpk_ + base64 of 32 bytes")
    return Ed25519PublicKey.from_public_bytes(raw)


def _ed25519_matches(key: Ed25519PublicKey, content: bytes, entry: str) -> bool:
    try:
        signature = base64.b64decode(entry[len("v1a,") :], validate=True)
    except (binascii.Error, ValueError):
        return False
    if len(signature) != 64:
        return False
    try:
        key.verify(signature, content)
    except InvalidSignature:
        return False
    return True


def _hmac_matches(secret: str, msg_id: str, timestamp: int, body: str, entries: Sequence[str]) -> bool:
    try:
        expected = Webhook(secret).sign(msg_id, datetime.fromtimestamp(timestamp, tz=UTC), body)
    except Exception as err:  # the library's own errors (empty secret, bad base64) are ours to name
        raise WebhookVerificationError("not a usable whsec_ secret") from err
    return any(hmac.compare_digest(entry.encode(), expected.encode()) for entry in entries)


def _x_signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(
    body: bytes | str,
    headers: Mapping[str, Any],
    keys: str | Sequence[str],
    *,
    scheme: Scheme = "standard-webhooks",
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> Any:
    """Verify a delivery's raw body and headers; return the parsed JSON body.

    ``keys`` is the subscription's ``whsec_`` secret or, for an ``ed25519`` subscription, its
    ``whpk_`` public key; during a rotation pass the old and the new (any one matching is
    enough). By default the Standard Webhooks headers are required and ``webhook-timestamp`` must
    be within ``tolerance`` seconds of ``now`` (replay protection). ``scheme="x-signature"``
    checks ``X-Signature`` (or ``X-Signature-Previous``) over the body alone instead: HMAC
    secrets only, and with no time in it, so deduplicate by event id.

    Raises WebhookVerificationError (and nothing else) when nothing matches, a header is malformed,
    or a key is unusable: empty, ``whsec_`` alone, or not standard, padded base64.
    """
    secrets = [keys] if isinstance(keys, str) else list(keys)
    if not secrets:
        raise WebhookVerificationError("no secret to verify with")
    for key in secrets:
        if not isinstance(key, str):
            raise WebhookVerificationError("a key is a str: the whsec_ secret or whpk_ public key")
        if not key.startswith(PUBLIC_KEY_PREFIX):
            _check_secret(key)
    raw = body.encode() if isinstance(body, str) else bytes(body)
    try:
        text = raw.decode()
    except UnicodeDecodeError as err:
        raise WebhookVerificationError("body is not UTF-8") from err

    if scheme == "standard-webhooks":
        msg_id = _header(headers, "webhook-id")
        timestamp = _header(headers, "webhook-timestamp")
        signatures = _header(headers, "webhook-signature")
        if not (msg_id and timestamp and signatures):
            raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
        if not _TIMESTAMP.fullmatch(timestamp):
            raise WebhookVerificationError("invalid webhook-timestamp")
        ts = int(timestamp)
        current = int(time.time() if now is None else now)
        if abs(current - ts) > tolerance:
            raise WebhookVerificationError("webhook-timestamp too old or too new")
        entries = signatures.split(" ")
        symmetric = [e for e in entries if e.startswith("v1,")]
        asymmetric = [e for e in entries if e.startswith("v1a,")][:MAX_ASYMMETRIC_ENTRIES]
        public_keys = [_public_key(k) for k in secrets if k.startswith(PUBLIC_KEY_PREFIX)]
        content = f"{msg_id}.{ts}.".encode() + raw
        ok = any(
            _hmac_matches(s, msg_id, ts, text, symmetric) for s in secrets if not s.startswith(PUBLIC_KEY_PREFIX)
        ) or any(_ed25519_matches(k, content, e) for k in public_keys for e in asymmetric)
    elif scheme == "x-signature":
        if all(s.startswith(PUBLIC_KEY_PREFIX) for s in secrets):
            raise WebhookVerificationError(
                "X-Signature is HMAC only: verify an ed25519 subscription with the default scheme"
            )
        presented = [v for v in (_header(headers, "x-signature"), _header(headers, "x-signature-previous")) if v]
        if not presented:
            raise WebhookVerificationError("missing x-signature header")
        ok = any(
            hmac.compare_digest(p.encode(), _x_signature(s, raw).encode())
            for s in secrets
            if not s.startswith(PUBLIC_KEY_PREFIX)
            for p in presented
        )
    else:
        raise ValueError(f"unknown scheme {scheme!r}")
    if not ok:
        raise WebhookVerificationError("no matching signature")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as err:
        raise WebhookVerificationError("body is not JSON") from err
