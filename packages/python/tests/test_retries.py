"""Retries against a local stub server that answers as scripted: Retry-After honoured on 429 and
5xx, a wait longer than max_retry_wait not taken, POST not repeated after a 5xx, dropped connections
retried for GET. (The live server's own 429s depend on its per-minute rate; the stub makes each
answer exact.)"""

from __future__ import annotations

import email.utils
import http.server
import json
import threading
import time
from typing import Any, Dict, Iterator, List

import pytest

from dcledger import Client, DcLedgerError, next_page, retry_after_seconds


class Stub(http.server.BaseHTTPRequestHandler):
    answers: List[Dict[str, Any]] = []
    arrivals: List[float] = []

    def _answer(self) -> None:
        type(self).arrivals.append(time.monotonic())
        answer = type(self).answers.pop(0) if type(self).answers else {"status": 200}
        if answer.get("drop"):
            self.close_connection = True
            self.connection.close()
            return
        body = json.dumps(answer.get("body", {"balance": 7})).encode()
        self.send_response(answer["status"])
        for name, value in answer.get("headers", {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = _answer  # noqa: N815
    do_POST = _answer  # noqa: N815

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def stub() -> Iterator[str]:
    Stub.answers, Stub.arrivals = [], []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_waits_as_retry_after_says_then_answers(stub: str) -> None:
    Stub.answers = [
        {"status": 429, "headers": {"Retry-After": "1"}, "body": {"detail": "slow down"}},
        {"status": 503, "headers": {"Retry-After": "0"}, "body": {"detail": "busy"}},
        {"status": 200},
    ]
    assert Client(stub, api_key="dc_test").credits_balance() == {"balance": 7}
    assert len(Stub.arrivals) == 3
    assert Stub.arrivals[1] - Stub.arrivals[0] >= 0.95


def test_a_wait_past_max_retry_wait_is_not_taken(stub: str) -> None:
    Stub.answers = [{"status": 429, "headers": {"Retry-After": "3600"}, "body": {"detail": "daily cap reached"}}]
    started = time.monotonic()
    with pytest.raises(DcLedgerError) as refused:
        Client(stub, max_retry_wait=5).credits_balance()
    assert refused.value.status == 429 and refused.value.detail == "daily cap reached"
    assert len(Stub.arrivals) == 1 and time.monotonic() - started < 5


def test_gives_up_after_the_last_retry_with_backoff(stub: str) -> None:
    Stub.answers = [{"status": 502, "body": {"detail": "bad gateway"}}] * 4
    waits: List[float] = []
    with pytest.raises(DcLedgerError, match="502: bad gateway"):
        Client(stub, retries=3, backoff=0.1, sleep=waits.append).get("/trades")
    assert len(Stub.arrivals) == 4
    # No Retry-After: exponential back-off from 0.1 s, jittered by a factor in [0.8, 1.2].
    assert len(waits) == 3
    assert all(0.08 * 2**index <= wait <= 0.12 * 2**index for index, wait in enumerate(waits))


def test_post_is_not_repeated_after_a_5xx_but_is_after_a_429(stub: str) -> None:
    Stub.answers = [{"status": 503, "headers": {"Retry-After": "0"}, "body": {"detail": "busy"}}]
    with pytest.raises(DcLedgerError):
        Client(stub).request("POST", "/alerts/subscriptions", json_body={})
    assert len(Stub.arrivals) == 1
    Stub.answers = [{"status": 429, "headers": {"Retry-After": "0"}}, {"status": 200}]
    assert Client(stub).request("POST", "/alerts/subscriptions", json_body={}).status == 200
    assert len(Stub.arrivals) == 3


def test_a_dropped_connection_is_retried_for_get(stub: str) -> None:
    Stub.answers = [{"drop": True}, {"status": 200}]
    assert Client(stub, backoff=0.01).get("/credits/balance") == {"balance": 7}
    assert len(Stub.arrivals) == 2


def test_client_errors_are_not_retried(stub: str) -> None:
    Stub.answers = [{"status": 422, "body": {"detail": "days must be at most 3650"}}]
    with pytest.raises(DcLedgerError, match="422: days must be at most 3650"):
        Client(stub).get("/trades", days=9999)
    assert len(Stub.arrivals) == 1


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after_seconds("7") == 7.0
    later = email.utils.formatdate(1_000_060, usegmt=True)
    assert retry_after_seconds(later, now=lambda: 1_000_000) == pytest.approx(60)
    assert retry_after_seconds(email.utils.formatdate(1, usegmt=True), now=lambda: 1_000_000) == 0
    assert retry_after_seconds(None) is None and retry_after_seconds("soon") is None


def test_next_page_reads_the_link_header() -> None:
    link = (
        '<http://127.0.0.1:8080/trades?ticker=NVDA&limit=25&offset=50>; rel="next", '
        '<http://127.0.0.1:8080/trades?limit=25&offset=0>; rel="first"'
    )
    assert next_page(link) == (50, 25)
    assert next_page('<http://127.0.0.1:8080/trades?limit=25&offset=0>; rel="prev"') is None
    assert next_page(None) is None


def test_the_key_never_shows_in_repr() -> None:
    assert "dc_secret" not in repr(Client("http://127.0.0.1:9", api_key="dc_secret"))
