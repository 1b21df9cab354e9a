// Turns the public trade filters (comma lists, days, date ranges) into a storage filter.
// Every rule of the interface's §4.2 lives here, once.

import { addDays, todayUtc } from '../domain/dates.js';
import { ownEntry } from '../domain/lookup.js';
import { GICS_SECTORS, normalizeSector } from '../domain/sectors.js';
import { SOURCE_OF_CHAMBER_FILTER } from '../domain/sources.js';
import { parseTickerList } from '../domain/ticker.js';
import { TRADE_ACTIONS } from '../domain/trade-type.js';
import { badRequest, invalidField, quoted } from '../errors.js';
import type { TradeFilter } from '../storage/repositories/trades.js';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 3650;
const MAX_LIST = 200;

const PARTIES = new Set(['D', 'R', 'I']);

const ASSET_TYPES: Record<string, string> = {
  stock: 'Stock',
  option: 'Option',
  options: 'Option',
  'stock option': 'Option',
  etf: 'ETF',
  'corporate bond': 'Corporate Bond',
  'municipal security': 'Municipal Security',
  'other securities': 'Other Securities',
  'non-public stock': 'Non-Public Stock',
  cryptocurrency: 'Cryptocurrency',
  'mutual fund': 'Mutual Fund',
  'government security': 'Government Security',
};

export interface TradeFilterParams {
  ticker?: string;
  politician_id?: string;
  party?: string;
  chamber?: string;
  state?: string;
  trade_type?: string;
  asset_type?: string;
  sector?: string;
}

export function splitList(field: string, raw: string): string[] {
  const items = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw invalidField(field, 'must not be empty');
  if (items.length > MAX_LIST) throw invalidField(field, `at most ${MAX_LIST} comma-separated values`);
  return [...new Set(items)];
}

export function parseTradeFilters(params: TradeFilterParams): TradeFilter {
  const filter: TradeFilter = {};
  if (params.ticker !== undefined) {
    splitList('ticker', params.ticker);
    const { tickers, invalid } = parseTickerList(params.ticker);
    if (invalid !== null) throw invalidField('ticker', `${quoted(invalid)} is not a ticker symbol`);
    filter.tickers = tickers;
  }
  if (params.politician_id !== undefined) {
    filter.politicianIds = splitList('politician_id', params.politician_id).map((id) => {
      const value = Number(id);
      if (!Number.isSafeInteger(value) || value < 1 || value > 2_147_483_647) {
        throw invalidField('politician_id', `${quoted(id)} is not a member id`);
      }
      return value;
    });
  }
  if (params.party !== undefined) {
    filter.parties = splitList('party', params.party).map((party) => {
      const code = party.toUpperCase();
      if (!PARTIES.has(code)) throw invalidField('party', `${quoted(party)} is not one of D, R, I`);
      return code;
    });
  }
  if (params.chamber !== undefined) {
    filter.sources = splitList('chamber', params.chamber).map((chamber) => {
      const source = ownEntry(SOURCE_OF_CHAMBER_FILTER, chamber.toLowerCase());
      if (!source) throw invalidField('chamber', `${quoted(chamber)} is not one of house, senate, executive`);
      return source;
    });
  }
  if (params.state !== undefined) {
    filter.states = splitList('state', params.state).map((state) => {
      if (!/^[A-Za-z]{2}$/.test(state))
        throw invalidField('state', `${quoted(state)} is not a two-letter state code`);
      return state.toUpperCase();
    });
  }
  if (params.trade_type !== undefined) {
    filter.actions = splitList('trade_type', params.trade_type).map((type) => {
      const action = type.toLowerCase();
      if (!(TRADE_ACTIONS as readonly string[]).includes(action)) {
        throw invalidField('trade_type', `${quoted(type)} is not one of ${TRADE_ACTIONS.join(', ')}`);
      }
      return action;
    });
  }
  if (params.asset_type !== undefined) {
    filter.assetTypes = splitList('asset_type', params.asset_type).map(
      (type) => ownEntry(ASSET_TYPES, type.toLowerCase()) ?? type,
    );
  }
  if (params.sector !== undefined) {
    filter.sectors = splitList('sector', params.sector).map((sector) => {
      const known = normalizeSector(sector);
      if (!known)
        throw invalidField('sector', `${quoted(sector)} is not a sector; one of ${GICS_SECTORS.join(', ')}`);
      return known;
    });
  }
  // Rule 2: filtering on what kind of asset it is only makes sense for assets with a ticker.
  if (filter.actions || filter.assetTypes || filter.sectors) filter.excludeNoTicker = true;
  return filter;
}

export interface DisclosureWindowParams {
  days?: number;
  date_from?: string;
  date_to?: string;
}

/** Rule 1: the last 30 days by default; `days` looks back from today; a full date range replaces both. */
export function disclosureWindow(params: DisclosureWindowParams, now: Date): { from: string; to: string } {
  const { date_from: from, date_to: to } = params;
  if (from !== undefined || to !== undefined) {
    if (from === undefined)
      throw badRequest('date_from is required when date_to is sent (send both, or use days)');
    if (to === undefined)
      throw badRequest('date_to is required when date_from is sent (send both, or use days)');
    if (from > to) throw invalidField('date_from', `must not be after date_to (${from} > ${to})`);
    return { from, to };
  }
  const days = params.days ?? DEFAULT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)
    throw invalidField('days', `must be 1-${MAX_DAYS}`);
  const today = todayUtc(now);
  return { from: addDays(today, -days), to: today };
}

export interface SyncFilterParams {
  transaction_date_from?: string;
  transaction_date_to?: string;
  /** ISO 8601 date or date-time; trades whose `updated_at` is at or after it. */
  updated_since?: string;
}

/** The transaction-date range and the `updated_since` cursor as a storage filter (422 when malformed). */
export function syncFilter(
  params: SyncFilterParams,
): Pick<TradeFilter, 'transactedFrom' | 'transactedTo' | 'updatedSince' | 'includeSuperseded'> {
  const from = params.transaction_date_from;
  const to = params.transaction_date_to;
  if (from !== undefined && to !== undefined && from > to)
    throw invalidField('transaction_date_from', `must not be after transaction_date_to (${from} > ${to})`);
  const filter: Pick<TradeFilter, 'transactedFrom' | 'transactedTo' | 'updatedSince' | 'includeSuperseded'> =
    {};
  if (from !== undefined) filter.transactedFrom = from;
  if (to !== undefined) filter.transactedTo = to;
  if (params.updated_since !== undefined) {
    filter.updatedSince = updatedSinceInstant(params.updated_since);
    // A sync sees the trades an amendment replaced leave (their superseded_by says by which).
    filter.includeSuperseded = true;
  }
  return filter;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `updated_since` as stored times are written (UTC, milliseconds, `Z`); a bare date is its midnight UTC. */
function updatedSinceInstant(text: string): string {
  const value = ISO_INSTANT.test(text)
    ? Date.parse(/T/.test(text) && !/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? `${text}Z` : text)
    : Number.NaN;
  if (Number.isNaN(value))
    throw invalidField(
      'updated_since',
      `"${text}" is not an ISO 8601 date or date-time (e.g. 2026-05-01T12:00:00Z)`,
    );
  return new Date(value).toISOString();
}
