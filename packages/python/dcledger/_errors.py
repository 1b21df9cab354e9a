"""Errors the client raises."""

from __future__ import annotations

from typing import Any


class DcLedgerError(Exception):
    """An HTTP answer outside 2xx: ``status``, the service's ``detail`` text and the whole ``body``."""

    def __init__(self, status: int, detail: str, body: Any = None, headers: Any = None) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail
        self.body = body
        self.headers = headers


class PandasMissingError(ImportError):
    """A DataFrame helper was called without pandas installed."""
