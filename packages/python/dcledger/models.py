"""Typed records of the API, field for field as the OpenAPI document (`GET /openapi.json`) names them.

Each model is a frozen dataclass built with ``Model.from_dict(row)``. Fields a newer server adds
land in ``extra`` instead of failing, so an old client keeps working; the tests compare every
model with the live document's schema, so a field renamed or retyped on the server fails them.
Dates are ISO strings (``YYYY-MM-DD``; timestamps in full ISO 8601), as the JSON carries them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Type, TypeVar

T = TypeVar("T", bound="Model")


@dataclass(frozen=True)
class Model:
    """Base of the records: ``from_dict`` and ``to_dict``."""

    @classmethod
    def from_dict(cls: Type[T], data: Mapping[str, Any]) -> T:
        names = {f.name for f in dataclasses.fields(cls) if f.name != "extra"}
        known = {name: data.get(name) for name in names}
        extra = {key: value for key, value in data.items() if key not in names}
        return cls(**known, extra=extra)  # type: ignore[call-arg]

    def to_dict(self) -> Dict[str, Any]:
        row = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "extra"}
        row.update(getattr(self, "extra", {}))
        return row


@dataclass(frozen=True)
class Trade(Model):
    """One disclosed transaction (``GET /trades``, ``/politicians/{id}/trades``, ``/bulk/trades``)."""

    id: int
    politician_id: int
    politician_name: str
    politician_slug: str
    party: Optional[str]
    party_name: Optional[str]
    state: Optional[str]
    chamber: str
    ticker: str
    trade_type: str
    asset_type: Optional[str]
    asset_description: Optional[str]
    amount_range: Optional[str]
    amount_low: Optional[float]
    amount_high: Optional[float]
    transaction_date: str
    disclosure_date: Optional[str]
    days_to_disclose: Optional[int]
    source: str
    owner: Optional[str]
    filing_id: Optional[int]
    filing_url: Optional[str]
    comment: Optional[str]
    sector: Optional[str]
    industry: Optional[str]
    price_on_trade_date: Optional[float]
    price_on_disclosure: Optional[float]
    gain_7d: Optional[float]
    gain_30d: Optional[float]
    gain_60d: Optional[float]
    gain_90d: Optional[float]
    gain_1yr: Optional[float]
    alpha_30d: Optional[float]
    alpha_90d: Optional[float]
    alpha_1yr: Optional[float]
    public_gain_30d: Optional[float]
    public_gain_90d: Optional[float]
    public_gain_180d: Optional[float]
    public_alpha_30d: Optional[float]
    public_alpha_90d: Optional[float]
    public_alpha_180d: Optional[float]
    current_return: Optional[float]
    current_alpha: Optional[float]
    days_held: int
    option_type: Optional[str]
    strike_price: Optional[float]
    option_expiry: Optional[str]
    conviction_score: Optional[float]
    peer_z_score: Optional[float]
    is_ma_affected: int
    superseded_by: Optional[int]
    bioguide_id: Optional[str]
    cap_gains_over_200: Optional[bool]
    updated_at: str
    identity_match: Optional[str]
    quality_flags: List[str]
    exchange_from_ticker: Optional[str]
    exchange_to_ticker: Optional[str]
    parse_method: str
    parse_confidence: Optional[float]
    extra: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Politician(Model):
    """A member or executive-branch filer with their statistics (``GET /politicians``)."""

    politician_id: int
    name: str
    party: Optional[str]
    party_name: Optional[str]
    state: Optional[str]
    chamber: str
    slug: str
    bioguide_id: Optional[str]
    district: Optional[str]
    title: Optional[str]
    agency: Optional[str]
    service_start: Optional[str]
    service_end: Optional[str]
    in_office: bool
    trade_count: int
    enriched_trades: int
    win_rate: Optional[float]
    wins: Optional[int]
    losses: Optional[int]
    avg_alpha_30d: Optional[float]
    avg_alpha_90d: Optional[float]
    sharpe_ratio: Optional[float]
    sharpe_ratio_low: Optional[float]
    sharpe_ratio_high: Optional[float]
    portfolio_return: Optional[float]
    portfolio_return_low: Optional[float]
    portfolio_return_high: Optional[float]
    cagr: Optional[float]
    cagr_low: Optional[float]
    cagr_high: Optional[float]
    conflict_score: Optional[float]
    conflict_score_low: Optional[float]
    conflict_score_high: Optional[float]
    holdings_count: Optional[int]
    portfolio_priced_share: Optional[float]
    portfolio_start: Optional[str]
    portfolio_end: Optional[str]
    stats_computed_at: Optional[str]
    total_volume_low: Optional[float]
    total_volume_high: Optional[float]
    last_trade_date: Optional[str]
    rank: Optional[int] = None
    extra: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class Subscription(Model):
    """A webhook subscription as ``GET /alerts/subscriptions`` lists it (never with its secret)."""

    id: int
    alert_type: str
    delivery: str
    webhook_url: str
    filter_value: Optional[str]
    status: str
    status_reason: Optional[str]
    failing_since: Optional[str]
    disabled_at: Optional[str]
    last_success_at: Optional[str]
    last_failure_at: Optional[str]
    secret_rotated_at: Optional[str]
    created_at: str
    extra: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class WebhookEvent:
    """A delivery that passed verification: its event type, delivery id and decoded body."""

    event: str
    delivery_id: str
    timestamp: int
    data: Any
    test: bool
