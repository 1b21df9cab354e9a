"""The HTTP client: standard library only (``urllib``, ``json``, ``zlib``)."""

from __future__ import annotations

import email.utils
import json
import random
import re
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from dataclasses import dataclass
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Tuple,
    Union,
)

from . import __version__
from ._errors import DcLedgerError
from .models import Politician, Subscription, Trade

#: Statuses retried (with ``Retry-After`` honoured): too many requests and the server-side ones a
#: later attempt can cure.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
#: Methods safe to repeat after a 5xx or a dropped connection; others are retried on 429 only
#: (a 429 means the request was refused before any work).
IDEMPOTENT = frozenset({"GET", "HEAD", "DELETE", "OPTIONS"})

Params = Mapping[str, Any]

_NEXT_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="?next"?')


@dataclass
class Response:
    """An answer: status, headers (case-insensitive ``get``) and the body bytes."""

    status: int
    headers: Any
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8")) if self.body else None


def next_page(link: Optional[str]) -> Optional[Tuple[int, int]]:
    """``(offset, limit)`` of the ``rel="next"`` entry of a Link header, or None."""
    for part in re.split(r",\s*(?=<)", link or ""):
        match = _NEXT_LINK.match(part.strip())
        if not match:
            continue
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(match.group(1)).query)
        try:
            offset, limit = int(query["offset"][0]), int(query["limit"][0])
        except (KeyError, ValueError, IndexError):
            continue
        if limit > 0:
            return offset, limit
    return None


def retry_after_seconds(value: Optional[str], now: Callable[[], float] = time.time) -> Optional[float]:
    """``Retry-After`` as seconds to wait: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now())


def _query(params: Optional[Params]) -> str:
    pairs: List[Tuple[str, str]] = []
    for key, value in (params or {}).items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, (list, tuple, set)):
            value = ",".join(str(item) for item in value)
        pairs.append((key, str(value)))
    return urllib.parse.urlencode(pairs)


class Client:
    """A dcledger API client.

    ``Client("http://localhost:8080", api_key="dc_...")``. Every call sends the key in
    ``DC-API-Key``; answers outside 2xx raise ``DcLedgerError`` with the service's ``detail``.
    429 and 5xx answers (and, for GET/DELETE, dropped connections) are retried up to ``retries``
    times, waiting as ``Retry-After`` says or else with jittered exponential back-off from
    ``backoff`` seconds; a ``Retry-After`` longer than ``max_retry_wait`` is not waited out (the
    error is raised at once, so a daily cap does not hang a script until midnight).
    """

    def __init__(
        self,
        base_url: str = "http://localhost:8080",
        api_key: Optional[str] = None,
        *,
        timeout: float = 60.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_retry_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        user_agent: Optional[str] = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_retry_wait = max_retry_wait
        self._sleep = sleep
        self.user_agent = user_agent or f"dcledger-python/{__version__}"

    def __repr__(self) -> str:  # never shows the key
        return f"Client({self.base_url!r})"

    # -- transport ---------------------------------------------------------------------------

    def _open(
        self, method: str, path: str, params: Optional[Params], body: Optional[bytes], headers: Dict[str, str]
    ) -> Any:
        """Sends one request with retries; returns the open urllib response (2xx, or 304)."""
        query = _query(params)
        url = f"{self.base_url}{path}{'?' + query if query else ''}"
        all_headers = {"Accept": "application/json", "User-Agent": self.user_agent, **headers}
        if self.api_key:
            all_headers["DC-API-Key"] = self.api_key
        if body is not None:
            all_headers.setdefault("Content-Type", "application/json")
        attempt = 0
        while True:
            request = urllib.request.Request(url, data=body, method=method, headers=all_headers)
            try:
                return urllib.request.urlopen(request, timeout=self.timeout)
            except urllib.error.HTTPError as error:
                if error.code == 304:
                    return error
                answer = Response(error.code, error.headers, error.read())
                error.close()
                wait = self._retry_wait(method, answer.status, answer.headers, attempt)
                if wait is None:
                    raise _error_of(answer) from None
            except (urllib.error.URLError, socket.timeout, ConnectionError) as error:
                if method not in IDEMPOTENT or attempt >= self.retries:
                    raise
                wait = self._backoff(attempt)
                del error
            attempt += 1
            self._sleep(wait)

    def _backoff(self, attempt: int) -> float:
        return self.backoff * (2**attempt) * random.uniform(0.8, 1.2)

    def _retry_wait(self, method: str, status: int, headers: Any, attempt: int) -> Optional[float]:
        """Seconds to wait before retrying, or None when this answer is final."""
        if attempt >= self.retries or status not in RETRY_STATUSES:
            return None
        if status != 429 and method not in IDEMPOTENT:
            return None
        told = retry_after_seconds(headers.get("Retry-After"))
        if told is None:
            return self._backoff(attempt)
        return told if told <= self.max_retry_wait else None

    def request(
        self,
        method: str,
        path: str,
        params: Optional[Params] = None,
        json_body: Any = None,
        headers: Optional[Dict[str, str]] = None,
    ) -> Response:
        """One call; the whole answer read. ``path`` starts with ``/`` (e.g. ``/trades``)."""
        body = None if json_body is None else json.dumps(json_body).encode("utf-8")
        with self._open(method.upper(), path, params, body, dict(headers or {})) as answer:
            status = getattr(answer, "status", None) or answer.getcode()
            return Response(status, answer.headers, answer.read())

    def get(self, path: str, **params: Any) -> Any:
        """GET ``path`` with ``params`` as the query; the decoded JSON."""
        return self.request("GET", path, params).json()

    # -- paging ------------------------------------------------------------------------------

    def pages(
        self, path: str, params: Optional[Params] = None, *, limit: int = 100, field: Optional[str] = None
    ) -> Iterator[List[Any]]:
        """Each page of a paged list, following the ``Link: rel="next"`` header until there is none.

        ``field`` names where the rows are when the answer is an object (``/alerts/log``:
        ``deliveries``); lists answered as arrays need none.
        """
        page: Optional[Tuple[int, int]] = (int(dict(params or {}).get("offset") or 0), limit)
        while page is not None:
            offset, size = page
            answer = self.request("GET", path, {**dict(params or {}), "offset": offset, "limit": size})
            body = answer.json()
            rows = body[field] if field else body
            if not isinstance(rows, list):
                raise TypeError(f"{path} did not answer a list (name the rows with field=)")
            yield rows
            page = next_page(answer.headers.get("Link"))

    def paginate(
        self,
        path: str,
        params: Optional[Params] = None,
        *,
        limit: int = 100,
        field: Optional[str] = None,
        key: Optional[str] = "id",
    ) -> Iterator[Any]:
        """Every row of a paged list once. Rows can shift between pages when a filing lands
        mid-walk, so rows already seen (by ``key``; None: no de-duplication) are skipped."""
        seen = set()
        for rows in self.pages(path, params, limit=limit, field=field):
            for row in rows:
                if key is not None and isinstance(row, dict) and key in row:
                    if row[key] in seen:
                        continue
                    seen.add(row[key])
                yield row

    # -- resources ---------------------------------------------------------------------------

    def trades(self, **filters: Any) -> List[Trade]:
        """One page of ``GET /trades`` (filters as the API names them: ``ticker``, ``days``, ``limit``...)."""
        return [Trade.from_dict(row) for row in self.get("/trades", **filters)]

    def iter_trades(self, *, page_size: int = 500, **filters: Any) -> Iterator[Trade]:
        """Every trade the filters select, page after page."""
        for row in self.paginate("/trades", filters, limit=page_size):
            yield Trade.from_dict(row)

    def politicians(self, **filters: Any) -> List[Politician]:
        """One page of ``GET /politicians``."""
        return [Politician.from_dict(row) for row in self.get("/politicians", **filters)]

    def iter_politicians(self, *, page_size: int = 500, **filters: Any) -> Iterator[Politician]:
        """Every member or filer the filters select, page after page."""
        for row in self.paginate("/politicians", filters, limit=page_size, key="politician_id"):
            yield Politician.from_dict(row)

    def politician(self, id_or_slug: Union[int, str]) -> Dict[str, Any]:
        """``GET /politicians/{id}``: the profile (an id or a slug such as ``nancy-pelosi``)."""
        return self.get(f"/politicians/{urllib.parse.quote(str(id_or_slug), safe='')}")

    def politician_trades(self, id_or_slug: Union[int, str], *, page_size: int = 500, **filters: Any) -> Iterator[Trade]:
        """Every trade of one member or filer."""
        path = f"/politicians/{urllib.parse.quote(str(id_or_slug), safe='')}/trades"
        for row in self.paginate(path, filters, limit=page_size):
            yield Trade.from_dict(row)

    def credits_balance(self) -> Dict[str, Any]:
        """``GET /credits/balance``."""
        return self.get("/credits/balance")

    def bulk_trades(self, *, if_none_match: Optional[str] = None) -> "BulkTrades":
        """``GET /bulk/trades`` as NDJSON, gzip on the wire, decoded as it streams (Pro and Max).

        Iterate the result for ``Trade`` objects; ``etag``/``last_modified`` name the build. Pass
        a previous ``etag`` as ``if_none_match``: an unchanged build answers 304, costs nothing and
        iterates as empty (``not_modified`` is True).
        """
        headers = {"Accept": "application/x-ndjson", "Accept-Encoding": "gzip"}
        if if_none_match:
            headers["If-None-Match"] = if_none_match
        answer = self._open("GET", "/bulk/trades", {"format": "ndjson"}, None, headers)
        return BulkTrades(answer)

    # -- webhooks ----------------------------------------------------------------------------

    def subscriptions(self) -> List[Subscription]:
        """``GET /alerts/subscriptions`` (never with secrets)."""
        return [Subscription.from_dict(row) for row in self.get("/alerts/subscriptions")["subscriptions"]]

    def create_subscription(
        self,
        alert_type: str,
        webhook_url: str,
        *,
        filter_value: Optional[str] = None,
        webhook_secret: Optional[str] = None,
    ) -> Dict[str, Any]:
        """``POST /alerts/subscriptions``: ``{id, status, webhook_secret}`` (the secret only when generated)."""
        body: Dict[str, Any] = {"alert_type": alert_type, "webhook_url": webhook_url}
        if filter_value is not None:
            body["filter_value"] = filter_value
        if webhook_secret is not None:
            body["webhook_secret"] = webhook_secret
        return self.request("POST", "/alerts/subscriptions", json_body=body).json()

    def test_subscription(self, subscription_id: int) -> Dict[str, Any]:
        """``POST /alerts/subscriptions/{id}/test``: sends the catalog example, signed, now."""
        return self.request("POST", f"/alerts/subscriptions/{int(subscription_id)}/test").json()

    def delete_subscription(self, subscription_id: int) -> Dict[str, Any]:
        """``DELETE /alerts/subscriptions/{id}``."""
        return self.request("DELETE", f"/alerts/subscriptions/{int(subscription_id)}").json()


class BulkTrades(Iterable[Trade]):
    """A streaming ``/bulk/trades`` download; iterate it once."""

    def __init__(self, answer: Any) -> None:
        self._answer = answer
        status = getattr(answer, "status", None) or answer.getcode()
        self.not_modified = status == 304
        self.etag: Optional[str] = answer.headers.get("ETag")
        self.last_modified: Optional[str] = answer.headers.get("Last-Modified")
        rows = answer.headers.get("X-Bulk-Rows")
        self.rows: Optional[int] = int(rows) if rows and rows.isdigit() else None

    def __iter__(self) -> Iterator[Trade]:
        with self._answer as answer:
            if self.not_modified:
                return
            gzipped = (answer.headers.get("Content-Encoding") or "").lower() == "gzip"
            inflate = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
            pending = b""
            while True:
                chunk = answer.read(1 << 16)
                if not chunk:
                    break
                pending += inflate.decompress(chunk) if inflate else chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line.strip():
                        yield Trade.from_dict(json.loads(line))
            if inflate:
                pending += inflate.flush()
            if pending.strip():
                yield Trade.from_dict(json.loads(pending))


def _error_of(answer: Response) -> DcLedgerError:
    try:
        body = answer.json()
    except (ValueError, UnicodeDecodeError):
        body = answer.body.decode("utf-8", "replace")
    detail = body.get("detail") if isinstance(body, dict) else None
    return DcLedgerError(answer.status, str(detail or body or "no detail"), body, answer.headers)
