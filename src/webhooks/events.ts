// Building outbox events: one typed constructor per event type fixes its subject (what makes a
// re-run emit nothing), its filter columns (ticker, member slug) and the shape of its data.
// Emitters call `emitTypedEvent(trx, tradeCreatedEvent(trade), now)` in the transaction that
// stores the data; disclosure data comes from payloads.ts's disclosureDetectedData. Nothing else
// writes the outbox (the dependency rule test checks that only this file calls emitEvent).
import type { Kysely } from 'kysely';
import type { Trade } from '../resources/trade.js';
import { type EventWrite, emitEvent } from '../storage/repositories/events.js';
import type { Database } from '../storage/schema.js';
import type {
  ContractAwardedData,
  InsiderFiledData,
  LobbyingFiledData,
  WhaleFiledData,
} from './event-schemas.js';
import type { EventType } from './event-types.js';
import { type disclosureDetectedData, tradeCreatedData } from './payloads.js';

/** The Filing resource plus its index-time context, as payloads.ts builds it. */
export type DisclosureDetectedData = ReturnType<typeof disclosureDetectedData>;

export interface EventData {
  'disclosure.detected': DisclosureDetectedData;
  'trade.created': Trade;
  'insider.filed': InsiderFiledData;
  'lobbying.filed': LobbyingFiledData;
  'contract.awarded': ContractAwardedData;
  'whale.filed': WhaleFiledData;
}

export interface TypedEventWrite<T extends EventType> extends EventWrite {
  type: T;
  data: EventData[T];
}

/** "N/A" (no public ticker) is not something to filter on. */
function tickerOrNull(ticker: string | null | undefined): string | null {
  const value = ticker?.trim().toUpperCase();
  return value && value !== 'N/A' ? value : null;
}

export function disclosureDetectedEvent(
  data: DisclosureDetectedData,
): TypedEventWrite<'disclosure.detected'> {
  return {
    type: 'disclosure.detected',
    subjectKey: `${data.source}:${data.source_doc_id}`,
    // A filing can name several tickers; the filter also looks at data.tickers.
    ticker: data.tickers.length === 1 ? tickerOrNull(data.tickers[0]) : null,
    politicianSlug: data.politician_slug,
    data,
  };
}

export function tradeCreatedEvent(trade: Trade): TypedEventWrite<'trade.created'> {
  return {
    type: 'trade.created',
    subjectKey: `trade:${trade.id}`,
    ticker: tickerOrNull(trade.ticker),
    politicianSlug: trade.politician_slug,
    data: tradeCreatedData(trade),
  };
}

export function insiderFiledEvent(data: InsiderFiledData): TypedEventWrite<'insider.filed'> {
  return {
    type: 'insider.filed',
    subjectKey: `insider:${data.accession_number}:${data.id}`,
    ticker: tickerOrNull(data.ticker),
    politicianSlug: null,
    data,
  };
}

export function lobbyingFiledEvent(data: LobbyingFiledData): TypedEventWrite<'lobbying.filed'> {
  return {
    type: 'lobbying.filed',
    subjectKey: `lda:${data.filing_uuid}`,
    ticker: tickerOrNull(data.ticker),
    politicianSlug: null,
    data,
  };
}

export function contractAwardedEvent(data: ContractAwardedData): TypedEventWrite<'contract.awarded'> {
  return {
    type: 'contract.awarded',
    // The PIID alone is not unique (delivery orders reuse short PIIDs like "0007"); the award key is.
    subjectKey: `contract:${data.award_key}`,
    ticker: tickerOrNull(data.ticker),
    politicianSlug: null,
    data,
  };
}

export function whaleFiledEvent(data: WhaleFiledData): TypedEventWrite<'whale.filed'> {
  return {
    type: 'whale.filed',
    subjectKey: `sec:${data.accession_number}`,
    ticker: tickerOrNull(data.ticker),
    politicianSlug: null,
    data,
  };
}

/**
 * What caused an event: the API request that emitted it (`request.id`) or the ingest run
 * (scheduler_runs.id) that stored its data. Both are carried to its deliveries and the worker's
 * log lines (`request_id`, `run`).
 */
export interface EventCause {
  requestId?: string;
  runId?: number;
}

/**
 * Writes an event built by one of the constructors above into the outbox (inside the caller's
 * transaction); false when an event of that type and subject already exists.
 */
export function emitTypedEvent<T extends EventType>(
  db: Kysely<Database>,
  event: TypedEventWrite<T>,
  now: string,
  cause?: EventCause,
): Promise<boolean> {
  return emitEvent(db, { ...event, requestId: cause?.requestId ?? null, runId: cause?.runId ?? null }, now);
}

/** What a subscription's filter_value is compared with. */
export interface FilterableEvent {
  ticker: string | null;
  politician_slug: string | null;
  /** disclosure.detected carries every ticker the filing names here. */
  tickers?: readonly string[];
}

/**
 * A filter is a ticker or a member slug: it matches the event's ticker (or any of a filing's
 * tickers) case-insensitively, or its member slug. No filter matches everything.
 */
export function matchesFilter(filter: string | null, event: FilterableEvent): boolean {
  if (filter === null) return true;
  const wanted = filter.trim().toLowerCase();
  if (event.ticker?.toLowerCase() === wanted) return true;
  if (event.politician_slug?.toLowerCase() === wanted) return true;
  return (event.tickers ?? []).some((ticker) => ticker.toLowerCase() === wanted);
}

/** The tickers array of a disclosure.detected data object, if the stored data has one. */
export function tickersOf(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || !('tickers' in data)) return [];
  const tickers = (data as { tickers: unknown }).tickers;
  return Array.isArray(tickers) ? tickers.filter((t): t is string => typeof t === 'string') : [];
}
