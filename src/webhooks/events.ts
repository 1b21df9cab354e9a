// Building outbox events: eventFor takes an event type and its data and reads the rest from the
// event's definition (event-catalog.ts): its subject (what makes a re-run emit nothing) and its
// filter columns (ticker, member slug). Emitters call `emitTypedEvent(trx, eventFor(type, data),
// now)` in the transaction that stores the data; disclosure and trade data come from payloads.ts.
// Nothing else writes the outbox (the dependency rule test checks that only this file calls
// emitEvent).
import type { Kysely } from 'kysely';
import { type EventWrite, emitEvent } from '../storage/repositories/events.js';
import type { Database } from '../storage/schema.js';
import { EVENT_CATALOG, type EventData, type EventDefinition, type EventType } from './event-catalog.js';

export type { DisclosureDetectedData, EventData, EventType } from './event-catalog.js';

export interface TypedEventWrite<T extends EventType> extends EventWrite {
  type: T;
  data: EventData[T];
}

/** "N/A" (no public ticker) is not something to filter on. */
function tickerOrNull(ticker: string | null | undefined): string | null {
  const value = ticker?.trim().toUpperCase();
  return value && value !== 'N/A' ? value : null;
}

/** The outbox event of `type` for `data`, as its definition describes it. */
export function eventFor<T extends EventType>(type: T, data: EventData[T]): TypedEventWrite<T> {
  const definition = EVENT_CATALOG[type] as unknown as EventDefinition<EventData[T]>;
  const { subjectKey, ticker, politicianSlug } = definition.subject(data);
  return { type, subjectKey, ticker: tickerOrNull(ticker), politicianSlug, data };
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
