// The stored hits of GET /overlap at its widest window (migration 0096-stored-overlap;
// docs/analytics.md, "Stored results"): their replacement by a rebuild and the reads a request
// makes of them.
import type { Kysely } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import type { OverlapHitsTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import { markStoredResult } from './stored-analytics.js';
import { inStoredTradeRange, type TradeRangeFilter } from './trade-range.js';

/** A link kind (its column holds the days to the trade's nearest record of that kind). */
export type OverlapKind = 'lobbying' | 'contract' | 'campaign';

/** Replaces the stored hits and clears the changes the rebuild has seen (in the rebuild's transaction). */
export async function replaceStoredOverlap(
  db: Kysely<Database>,
  hits: readonly OverlapHitsTable[],
  computedAt: string,
  seenChanges: readonly number[],
): Promise<void> {
  await db.deleteFrom('overlap_hits').execute();
  for (const batch of chunk(hits, rowsPerInsert(11)))
    if (batch.length > 0) await db.insertInto('overlap_hits').values(batch).execute();
  await markStoredResult(db, [{ name: 'overlap', rowCount: hits.length }], computedAt, seenChanges);
}

/** The asked link kinds and window: a trade is a hit when one of the kinds has a record within it. */
export interface OverlapAsked {
  kinds: readonly OverlapKind[];
  windowDays: number;
}

function storedHits(db: Kysely<Database>, range: TradeRangeFilter, asked: OverlapAsked) {
  return db
    .selectFrom('overlap_hits as t')
    .where(inStoredTradeRange(range))
    .where((eb) => eb.or(asked.kinds.map((kind) => eb(`t.${kind}_days`, '<=', asked.windowDays))));
}

/** How many of a range's stored trades are hits of these kinds at this window. */
export async function countStoredOverlap(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  asked: OverlapAsked,
): Promise<number> {
  const row = await storedHits(db, range, asked)
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of them, newest transaction first (ties: higher id first, as the other lists). */
export function storedOverlapPage(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  asked: OverlapAsked,
  page: { limit: number; offset: number },
) {
  return storedHits(db, range, asked)
    .select(['t.trade_id', 't.evidence'])
    .orderBy('t.transaction_date', 'desc')
    .orderBy('t.trade_id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
