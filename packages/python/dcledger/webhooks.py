"""Verifying webhook deliveries, exactly as the service signs them (see docs/webhooks.md).

Every delivery carries two signature families, keyed differently:

* ``X-DCLedger-Signature``: hex HMAC-SHA256 of the raw body, and
  ``X-DCLedger-Signature-Timestamped``: hex HMAC-SHA256 of ``<delivery id>.<timestamp>.<body>``.
  Both are keyed with the secret string as shown to you, as UTF-8 bytes (``whsec_`` included).
* ``webhook-signature`` (Standard Webhooks): ``v1,<base64 HMAC-SHA256 of
  "<webhook-id>.<webhook-timestamp>.<body>">``, keyed with the base64-decoded payload after
  ``whsec_`` (a secret chosen without that prefix: its UTF-8 bytes).

``verify`` checks the first family (body signature, then the timestamped one and the replay
window), ``verify_standard`` the second. Both work on the raw body bytes, before any JSON parsing,
and compare in constant time (``hmac.compare_digest``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Callable, Mapping, Optional, Union

from .models import WebhookEvent

SIGNATURE_HEADER = "X-DCLedger-Signature"
TIMESTAMPED_SIGNATURE_HEADER = "X-DCLedger-Signature-Timestamped"
EVENT_HEADER = "X-DCLedger-Event"
DELIVERY_HEADER = "X-DCLedger-Delivery"
TIMESTAMP_HEADER = "X-DCLedger-Timestamp"
TEST_HEADER = "X-DCLedger-Test"
STANDARD_ID_HEADER = "webhook-id"
STANDARD_TIMESTAMP_HEADER = "webhook-timestamp"
STANDARD_SIGNATURE_HEADER = "webhook-signature"

DEFAULT_TOLERANCE_SECONDS = 300

Body = Union[bytes, bytearray, memoryview, str]


class WebhookVerificationError(ValueError):
    """A delivery that must be refused (answer it 401); the message says why."""


def _bytes(body: Body) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


def _header(headers: Any, name: str) -> Optional[str]:
    """A header from a dict (any case), an ``email.message.Message`` or anything with ``get``."""
    if isinstance(headers, Mapping):
        wanted = name.lower()
        for key, value in headers.items():
            if str(key).lower() == wanted:
                if isinstance(value, (list, tuple)):
                    value = value[0] if value else None
                return None if value is None else str(value)
        return None
    value = headers.get(name)
    return None if value is None else str(value)


def sign_body(raw_body: Body, secret: str) -> str:
    """Hex HMAC-SHA256 of the body bytes, keyed with the secret's UTF-8 bytes."""
    return hmac.new(secret.encode("utf-8"), _bytes(raw_body), hashlib.sha256).hexdigest()


def sign_timestamped(delivery_id: str, timestamp: int, raw_body: Body, secret: str) -> str:
    """Hex HMAC-SHA256 of ``<delivery id>.<timestamp>.<body>``, keyed as ``sign_body``."""
    message = f"{delivery_id}.{timestamp}.".encode("utf-8") + _bytes(raw_body)
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def standard_key(secret: str) -> bytes:
    """The Standard Webhooks key: a ``whsec_`` secret's base64 payload, any other secret's UTF-8."""
    if secret.startswith("whsec_"):
        return base64.b64decode(secret[len("whsec_") :])
    return secret.encode("utf-8")


def sign_standard(webhook_id: str, timestamp: int, raw_body: Body, secret: str) -> str:
    """``v1,<base64 HMAC-SHA256>`` of ``<id>.<timestamp>.<body>``, as Standard Webhooks signs."""
    message = f"{webhook_id}.{timestamp}.".encode("utf-8") + _bytes(raw_body)
    digest = hmac.new(standard_key(secret), message, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def _same_hex(expected: str, received: Optional[str]) -> bool:
    if received is None:
        return False
    try:
        given = binascii.unhexlify(received.strip())
    except (binascii.Error, ValueError):
        return False
    return hmac.compare_digest(binascii.unhexlify(expected), given)


def _timestamp(text: Optional[str]) -> Optional[int]:
    if text is None or not text.isdigit() or len(text) > 12:
        return None
    return int(text)


def _window(timestamp: int, tolerance: int, now: Callable[[], float], header: str) -> None:
    if abs(int(now()) - timestamp) > tolerance:
        raise WebhookVerificationError(f"{header} is outside the {tolerance} s window")


def _decode(raw_body: Body) -> Mapping[str, Any]:
    try:
        payload = json.loads(_bytes(raw_body).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise WebhookVerificationError("the body is not JSON") from error
    if not isinstance(payload, dict) or "event" not in payload or "data" not in payload:
        raise WebhookVerificationError("the body is not { event, data }")
    return payload


def verify(
    raw_body: Body,
    headers: Any,
    secret: str,
    *,
    tolerance_seconds: Optional[int] = DEFAULT_TOLERANCE_SECONDS,
    now: Callable[[], float] = time.time,
) -> WebhookEvent:
    """Checks a delivery's ``X-DCLedger-*`` signatures and returns its event.

    ``raw_body`` is the request body exactly as received; ``headers`` a dict (any case), an
    ``http.server`` ``Message`` or a framework's header object. ``tolerance_seconds=None`` checks
    only the body signature (no replay window). Raises ``WebhookVerificationError`` otherwise.
    """
    if not _same_hex(sign_body(raw_body, secret), _header(headers, SIGNATURE_HEADER)):
        raise WebhookVerificationError(f"{SIGNATURE_HEADER} does not match the body")
    delivery_id = _header(headers, DELIVERY_HEADER)
    timestamp = _timestamp(_header(headers, TIMESTAMP_HEADER))
    if tolerance_seconds is not None:
        if delivery_id is None or timestamp is None:
            raise WebhookVerificationError(f"{DELIVERY_HEADER} and {TIMESTAMP_HEADER} are required")
        _window(timestamp, tolerance_seconds, now, TIMESTAMP_HEADER)
        expected = sign_timestamped(delivery_id, timestamp, raw_body, secret)
        if not _same_hex(expected, _header(headers, TIMESTAMPED_SIGNATURE_HEADER)):
            raise WebhookVerificationError(f"{TIMESTAMPED_SIGNATURE_HEADER} does not match")
    payload = _decode(raw_body)
    event = str(payload["event"])
    if event != _header(headers, EVENT_HEADER):
        raise WebhookVerificationError(f"{EVENT_HEADER} does not match the body's event")
    return WebhookEvent(
        event=event,
        delivery_id=delivery_id or "",
        timestamp=timestamp or 0,
        data=payload["data"],
        test=_header(headers, TEST_HEADER) == "true",
    )


def verify_standard(
    raw_body: Body,
    headers: Any,
    secret: str,
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Callable[[], float] = time.time,
) -> WebhookEvent:
    """Checks a delivery's Standard Webhooks ``webhook-signature`` and returns its event."""
    webhook_id = _header(headers, STANDARD_ID_HEADER)
    timestamp = _timestamp(_header(headers, STANDARD_TIMESTAMP_HEADER))
    if webhook_id is None or timestamp is None:
        raise WebhookVerificationError(
            f"{STANDARD_ID_HEADER} and {STANDARD_TIMESTAMP_HEADER} are required"
        )
    _window(timestamp, tolerance_seconds, now, STANDARD_TIMESTAMP_HEADER)
    expected = sign_standard(webhook_id, timestamp, raw_body, secret).encode("ascii")
    offered = (_header(headers, STANDARD_SIGNATURE_HEADER) or "").split(" ")
    # Every entry is compared (no early exit), each in constant time.
    matched = False
    for entry in offered:
        if entry.startswith("v1,") and hmac.compare_digest(entry.encode("utf-8"), expected):
            matched = True
    if not matched:
        raise WebhookVerificationError(f"{STANDARD_SIGNATURE_HEADER} does not match")
    payload = _decode(raw_body)
    return WebhookEvent(
        event=str(payload["event"]),
        delivery_id=webhook_id,
        timestamp=timestamp,
        data=payload["data"],
        test=_header(headers, TEST_HEADER) == "true",
    )
