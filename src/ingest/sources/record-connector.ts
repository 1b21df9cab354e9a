// The contract of a record source's parts (LDA lobbying filings, USAspending contract awards,
// congress.gov bills, Voteview roll calls, EDGAR forms): the connector yields pages of parsed records
// (or an index lists documents, see source-definition.ts), the store upserts one record with its
// events. The pipeline's one loop runs every source that keeps this contract.
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

/** Pages of one list a connector reads at most: a guard against a source that always names a next page. */
export const MAX_PAGES = 10_000;

/** A page of records as the source served it. */
export interface RecordPage<R> {
  /** What was fetched (a URL), for reports. */
  label: string;
  bytes: Buffer;
  /** More documents the records were read from (a bill's linked answers), archived with the page. */
  documents?: Buffer[];
  records: R[];
  /** Rows of the page that are not records of this source, with why. */
  skipped: Array<{ id: string; reason: string }>;
  /** Records the whole query holds, when the source says (LDA `count`). */
  total: number | null;
}

export interface RecordConnector<R> {
  /** Pages of records filed on or after `since` (YYYY-MM-DD). */
  pages(since: string, now: Date, signal?: AbortSignal): AsyncIterable<RecordPage<R>>;
}

export type StoreOutcome = 'new' | 'updated' | 'unchanged';

export interface StoredRecord {
  outcome: StoreOutcome;
  /** The event was emitted (new records only). */
  emitted: boolean;
  /** Events emitted, when a record can have several (a Form 4's lines); default one if `emitted`. */
  events?: number;
  /** The company name the record could not be matched to a ticker, if any. */
  unmatchedName: string | null;
  /**
   * Adds the record to the store's own totals (`details`), called once the page's transaction has
   * committed: a transaction run again after a lock conflict stores the record twice, counts it once.
   */
  count?: () => void;
}

/**
 * How a source stores one record: upsert, company match, event (all inside the page's transaction,
 * which may run again: nothing is changed outside it, counts go through `StoredRecord.count`).
 */
export interface RecordStore<R> {
  store(db: Kysely<Database>, record: R, rawSha256: string, now: Date): Promise<StoredRecord>;
  /** What the store counted beyond new/updated/unchanged (a source's own totals), for its report. */
  details?(): Record<string, unknown>;
}

/** A source answered something its reader cannot take (not a filings page, not JSON ...). */
export class RecordSourceError extends Error {}
