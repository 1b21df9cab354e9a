"""The client against a live dcledger server (see conftest.py): typed calls with the key, paging by
the Link header, errors with the service's detail, the bulk download, models that match
/openapi.json, webhook deliveries verified as the service signs them, and the pandas helpers."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import http.server
import json
import math
import sys
import threading
import typing
from typing import Any, Dict, List

import pytest

import dcledger
from dcledger import Client, DcLedgerError, PandasMissingError, Politician, Subscription, Trade
from dcledger import frames, webhooks

JSON_TYPES = {int: "integer", float: "number", str: "string", bool: "boolean", list: "array"}


def openapi_type(annotation: Any) -> tuple:
    """``(json type, nullable)`` of a dataclass field's annotation."""
    nullable = typing.get_origin(annotation) is typing.Union and type(None) in typing.get_args(annotation)
    base = next(arg for arg in typing.get_args(annotation) if arg is not type(None)) if nullable else annotation
    origin = typing.get_origin(base) or base
    return JSON_TYPES.get(origin, "?"), nullable


@pytest.fixture(scope="module")
def client(live: Dict[str, Any]) -> Client:
    return Client(live["url"], api_key=live["api_key"])


@pytest.mark.parametrize("model", [Trade, Politician, Subscription])
def test_models_match_the_openapi_document(client: Client, model: type) -> None:
    schema = client.get("/openapi.json")["components"]["schemas"][model.__name__]
    hints = typing.get_type_hints(model)
    fields = {f.name: openapi_type(hints[f.name]) for f in dataclasses.fields(model) if f.name != "extra"}
    documented = {}
    for name, prop in schema["properties"].items():
        kinds = prop.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        documented[name] = (
            next(kind for kind in kinds if kind != "null"),
            "null" in kinds or name not in schema.get("required", []),
        )
    assert fields == documented


def test_typed_trades_and_paging_by_link_header(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    everything = client.trades(ticker="NVDA", days=3650, limit=1000)
    assert len(everything) > 20
    assert all(isinstance(trade, Trade) and trade.ticker == "NVDA" for trade in everything)
    assert isinstance(everything[0].id, int) and everything[0].politician_slug

    offsets: List[int] = []
    request = client.request

    def recording(method: str, path: str, params: Any = None, **kwargs: Any) -> Any:
        offsets.append(int(params["offset"]))
        return request(method, path, params, **kwargs)

    monkeypatch.setattr(client, "request", recording)
    paged = list(client.iter_trades(ticker="NVDA", days=3650, page_size=7))
    assert [trade.id for trade in paged] == [trade.id for trade in everything]
    # A rel="next" link follows every full page, so the walk ends on the first short page.
    assert offsets == [index * 7 for index in range(math.ceil((len(everything) + 1) / 7))]


def test_politicians_profiles_and_member_trades(client: Client) -> None:
    members = list(client.iter_politicians(page_size=50, has_trades=True))
    assert len(members) > 50
    assert len({member.politician_id for member in members}) == len(members)
    pelosi = client.politician("nancy-pelosi")
    assert pelosi["name"] == "Nancy Pelosi"
    trades = list(client.politician_trades("nancy-pelosi", page_size=100))
    assert trades and {trade.politician_slug for trade in trades} == {"nancy-pelosi"}


def test_refusals_carry_the_service_detail(live: Dict[str, Any], client: Client) -> None:
    with pytest.raises(DcLedgerError) as anonymous:
        Client(live["url"]).trades(limit=1)
    assert anonymous.value.status == 401
    assert "DC-API-Key" in anonymous.value.detail

    with pytest.raises(DcLedgerError) as unknown:
        client.trades(tickers="NVDA")
    assert unknown.value.status == 400
    assert "did you mean `ticker`" in unknown.value.detail
    assert unknown.value.body["field"] == "tickers"


def test_bulk_download_streams_every_trade_and_skips_an_unchanged_build(live: Dict[str, Any], client: Client) -> None:
    download = client.bulk_trades()
    ids = [trade.id for trade in download]
    assert download.rows == len(ids) and len(ids) > 1000
    assert ids == sorted(ids)
    assert download.etag
    again = client.bulk_trades(if_none_match=download.etag)
    assert again.not_modified and list(again) == []
    with pytest.raises(DcLedgerError) as refused:
        Client(live["url"], api_key=live["core_api_key"]).bulk_trades()
    assert refused.value.status == 403


class _Receiver(http.server.BaseHTTPRequestHandler):
    received: List[Dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append({"headers": dict(self.headers.items()), "body": body})
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def test_a_real_delivery_verifies_with_both_signature_families(live: Dict[str, Any], client: Client) -> None:
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
        created = client.create_subscription("trade.created", url, filter_value="NVDA")
        secret = created["webhook_secret"]
        assert secret.startswith("whsec_")
        assert any(sub.id == created["id"] for sub in client.subscriptions())
        sent = client.test_subscription(created["id"])
        assert sent["delivered"] is True, sent
        delivery = _Receiver.received[-1]
        body, headers = delivery["body"], delivery["headers"]

        # The test server's clock stands still at the fixture's date; the replay window follows it.
        at = lambda: live["now"]  # noqa: E731
        event = webhooks.verify(body, headers, secret, now=at)
        assert event.event == "trade.created" and event.test is True
        assert event.delivery_id == sent["delivery_id"]
        assert event.data["ticker"]
        standard = webhooks.verify_standard(body, headers, secret, now=at)
        assert standard.delivery_id == event.delivery_id

        tampered = body.replace(b'"data"', b'"data" ', 1)
        with pytest.raises(webhooks.WebhookVerificationError, match="X-DCLedger-Signature does not match"):
            webhooks.verify(tampered, headers, secret, now=at)
        with pytest.raises(webhooks.WebhookVerificationError, match="webhook-signature"):
            webhooks.verify_standard(tampered, headers, secret, now=at)
        with pytest.raises(webhooks.WebhookVerificationError):
            webhooks.verify(body, headers, secret + "x", now=at)
        # The Standard Webhooks key is the decoded payload, the X-DCLedger one the string itself.
        with pytest.raises(webhooks.WebhookVerificationError, match="outside the 300 s window"):
            webhooks.verify(body, headers, secret, now=lambda: live["now"] + 301)
        signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
        as_string = hmac.new(secret.encode(), signed, hashlib.sha256).digest()
        decoded = hmac.new(base64.b64decode(secret[6:]), signed, hashlib.sha256).digest()
        assert headers["webhook-signature"] == "v1," + base64.b64encode(decoded).decode()
        assert headers["webhook-signature"] != "v1," + base64.b64encode(as_string).decode()
        assert headers["X-DCLedger-Signature"] == hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        client.delete_subscription(created["id"])
    finally:
        receiver.shutdown()
        receiver.server_close()


def test_pandas_helpers_return_frames(client: Client) -> None:
    pandas = pytest.importorskip("pandas")
    frame = frames.trades_frame(client, ticker="NVDA", days=3650, page_size=50)
    assert isinstance(frame, pandas.DataFrame)
    assert frame.index.name == "id" and len(frame) == len(client.trades(ticker="NVDA", days=3650, limit=1000))
    assert str(frame["transaction_date"].dtype).startswith("datetime64")
    people = frames.politicians_frame(client, has_trades=True)
    assert people.index.name == "politician_id" and "name" in people.columns


def test_pandas_helpers_say_what_is_missing(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now fails as if absent
    calls: List[Any] = []
    monkeypatch.setattr(client, "request", lambda *args, **kwargs: calls.append(args))
    with pytest.raises(PandasMissingError, match="pip install pandas"):
        frames.trades_frame(client, ticker="NVDA")
    assert calls == []  # refused before any paid request
    assert dcledger.Client is Client  # the client itself still imports and works without pandas
