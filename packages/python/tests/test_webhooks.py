"""Webhook verification rules on constructed deliveries (signed here, with a constructed secret):
replay window, required headers, event mismatch, prefixed and unprefixed secrets. The live test
(test_live.py) checks a delivery the server itself signed."""

from __future__ import annotations

import base64

import pytest

from dcledger import webhooks
from dcledger.webhooks import WebhookVerificationError

SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()
BODY = b'{"event":"trade.created","data":{"id":1042,"ticker":"NVDA"}}'
NOW = 1_780_315_200


def headers(body: bytes = BODY, secret: str = SECRET, at: int = NOW, event: str = "trade.created") -> dict:
    return {
        "x-dcledger-event": event,
        "x-dcledger-delivery": "dlv_123",
        "x-dcledger-timestamp": str(at),
        "x-dcledger-signature": webhooks.sign_body(body, secret),
        "x-dcledger-signature-timestamped": webhooks.sign_timestamped("dlv_123", at, body, secret),
        "webhook-id": "dlv_123",
        "webhook-timestamp": str(at),
        "webhook-signature": webhooks.sign_standard("dlv_123", at, body, secret),
    }


def test_accepts_a_signed_delivery_with_any_header_case() -> None:
    event = webhooks.verify(BODY, {k.upper(): v for k, v in headers().items()}, SECRET, now=lambda: NOW + 299)
    assert (event.event, event.delivery_id, event.timestamp, event.test) == ("trade.created", "dlv_123", NOW, False)
    assert event.data == {"id": 1042, "ticker": "NVDA"}
    assert webhooks.verify_standard(BODY.decode(), headers(), SECRET, now=lambda: NOW).data["ticker"] == "NVDA"


def test_refuses_replays_changed_headers_and_wrong_events() -> None:
    with pytest.raises(WebhookVerificationError, match="window"):
        webhooks.verify(BODY, headers(), SECRET, now=lambda: NOW + 301)
    with pytest.raises(WebhookVerificationError, match="window"):
        webhooks.verify_standard(BODY, headers(), SECRET, now=lambda: NOW - 301)
    # Without the replay window only the body signature counts.
    assert webhooks.verify(BODY, headers(), SECRET, tolerance_seconds=None, now=lambda: NOW + 10**7).event
    moved = {**headers(), "x-dcledger-timestamp": str(NOW + 5)}
    with pytest.raises(WebhookVerificationError, match="Timestamped does not match"):
        webhooks.verify(BODY, moved, SECRET, now=lambda: NOW)
    missing = {k: v for k, v in headers().items() if k != "x-dcledger-delivery"}
    with pytest.raises(WebhookVerificationError, match="required"):
        webhooks.verify(BODY, missing, SECRET, now=lambda: NOW)
    with pytest.raises(WebhookVerificationError, match="Event does not match"):
        webhooks.verify(BODY, headers(event="trade.deleted"), SECRET, now=lambda: NOW)
    with pytest.raises(WebhookVerificationError, match="does not match the body"):
        webhooks.verify(BODY, {**headers(), "x-dcledger-signature": "zz"}, SECRET, now=lambda: NOW)


def test_a_secret_without_the_prefix_keys_both_families_with_its_utf8_bytes() -> None:
    chosen = "a-secret-i-chose-myself"
    signed = headers(secret=chosen)
    assert webhooks.verify(BODY, signed, chosen, now=lambda: NOW).event == "trade.created"
    assert webhooks.verify_standard(BODY, signed, chosen, now=lambda: NOW).event == "trade.created"
    # A prefixed secret's Standard key is the decoded payload, not the string.
    assert webhooks.standard_key(SECRET) == bytes(range(32))
    assert webhooks.sign_standard("i", 1, BODY, SECRET) != webhooks.sign_standard("i", 1, BODY, "x" + SECRET)


def test_several_standard_signatures_any_one_matching() -> None:
    signed = headers()
    signed["webhook-signature"] = "v1,bm90LXRoaXMtb25l " + signed["webhook-signature"]
    assert webhooks.verify_standard(BODY, signed, SECRET, now=lambda: NOW).delivery_id == "dlv_123"
    signed["webhook-signature"] = "v1,bm90LXRoaXMtb25l"
    with pytest.raises(WebhookVerificationError):
        webhooks.verify_standard(BODY, signed, SECRET, now=lambda: NOW)
