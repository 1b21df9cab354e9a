// The stored hits of GET /overlap at its widest window (migration 0096-stored-overlap;
// docs/analytics.md, "Stored results"): their replacement by a rebuild and the reads a request
// makes of them.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import { commaJoinedInOrder, isSqlite, jsonTextsArray } from '../dialect.js';
import { pageLimit } from '../list-order.js';
import type { OverlapHitsTable, OverlapRecordsTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import { markStoredResult } from './stored-analytics.js';
import { hitTradeJson, withTradesInPageOrder } from './stored-analytics-json.js';
import { inStoredTradeRange, type TradeRangeFilter } from './trade-range.js';
import { BYTES_PAGE_ROWS } from './trades-json.js';

/** A link kind (its column holds the days to the trade's nearest record of that kind). */
export type OverlapKind = 'lobbying' | 'contract' | 'campaign';

/**
 * Replaces the stored hits and their records, and clears the changes the rebuild has seen (in the
 * rebuild's transaction).
 */
export async function replaceStoredOverlap(
  db: Kysely<Database>,
  stored: { hits: readonly OverlapHitsTable[]; records: readonly OverlapRecordsTable[] },
  computedAt: string,
  seenChanges: readonly number[],
): Promise<void> {
  await db.deleteFrom('overlap_hits').execute();
  await db.deleteFrom('overlap_records').execute();
  for (const batch of chunk(stored.hits, rowsPerInsert(14)))
    if (batch.length > 0) await db.insertInto('overlap_hits').values(batch).execute();
  for (const batch of chunk(stored.records, rowsPerInsert(5)))
    if (batch.length > 0) await db.insertInto('overlap_records').values(batch).execute();
  await markStoredResult(db, [{ name: 'overlap', rowCount: stored.hits.length }], computedAt, seenChanges);
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
  return storedOverlapPageQuery(db, range, asked, page).select(['t.trade_id', 't.evidence']).execute();
}

function storedOverlapPageQuery(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  asked: OverlapAsked,
  page: { limit: number; offset: number },
) {
  return storedHits(db, range, asked)
    .orderBy('t.transaction_date', 'desc')
    .orderBy('t.trade_id', 'desc')
    .limit(pageLimit(page.limit))
    .offset(page.offset);
}

/** Each link kind and its list in the answer, in the answer's order. */
const KIND_LISTS: ReadonlyArray<readonly [OverlapKind, string]> = [
  ['lobbying', 'lobbying'],
  ['contract', 'contracts'],
  ['campaign', 'campaign'],
];

/**
 * storedOverlapPage's hits as the text of the page's JSON array, each with its trade, link kinds,
 * seats and the records of the asked kinds within the window (the objects services/overlap.ts
 * builds from the same rows; a hit whose trade is gone is left out, as there). Joined as text from
 * the JSON the rebuild stored (the hit's links whole when the window reaches all of them and every
 * kind is asked, else its seats and the records asked from overlap_records): no JSON is read
 * apart. On SQLite a page of more than BYTES_PAGE_ROWS hits comes as its UTF-8 bytes.
 */
export async function storedOverlapPageJson(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  asked: OverlapAsked,
  page: { limit: number; offset: number },
  /** The hit's trade fields, in order. */
  tradeFields: readonly string[],
): Promise<{ json: string | Buffer; rows: number }> {
  const plain = db as unknown as Kysely<unknown>;
  const sqlite = isSqlite(plain);
  const window = asked.windowDays;
  const records = (kind: OverlapKind) =>
    asked.kinds.includes(kind)
      ? sql`coalesce((select '[' || ${commaJoinedInOrder(plain, sql.ref('r.record'), sql.ref('r.position'))} || ']' from overlap_records r
          where r.trade_id = h.trade_id and r.kind = ${kind} and r.days <= ${window}), '[]')`
      : sql`'[]'`;
  const kindNames = KIND_LISTS.filter(([kind]) => asked.kinds.includes(kind)).map(
    ([kind]) =>
      sql`case when ${sql.ref(`h.${kind}_days`)} <= ${window} then ${sql.lit(`"${kind}",`)} else '' end`,
  );
  const trade = hitTradeJson(db, tradeFields);
  const joinedLinks = sql.join(
    [
      sql`'"committees_at_trade":'`,
      sql.ref('h.seats'),
      ...KIND_LISTS.flatMap(([kind, list]) => [sql.lit(`,"${list}":`), records(kind)]),
    ],
    sql` || `,
  );
  // Every kind asked and every record within the window: the stored text is the answer's.
  const links = KIND_LISTS.every(([kind]) => asked.kinds.includes(kind))
    ? sql`case when h.farthest_days <= ${window} then h.served_links else ${joinedLinks} end`
    : joinedLinks;
  const parts: RawBuilder<unknown>[] = [
    sql`'{"trade":'`,
    sqlite ? trade : sql`cast(${trade} as text)`,
    sql`',"link_kinds":['`,
    sql`rtrim(${sql.join(kindNames, sql` || `)}, ',')`,
    sql`'],'`,
    links,
    sql`'}'`,
  ];
  const hit = sql`(${sql.join(parts, sql` || `)})`;
  const hits = storedOverlapPageQuery(db, range, asked, page).select([
    't.trade_id',
    't.transaction_date',
    't.served_links',
    't.farthest_days',
    't.seats',
    't.lobbying_days',
    't.contract_days',
    't.campaign_days',
  ]);
  const row = await withTradesInPageOrder(db, hits.as('h'))
    .select([
      jsonTextsArray(
        plain,
        hit,
        sql`h.transaction_date desc, h.trade_id desc`,
        sqlite && page.limit > BYTES_PAGE_ROWS,
      ).as('json'),
      sql<number | string>`count(*)`.as('rows'),
    ])
    .executeTakeFirstOrThrow();
  return { json: row.json, rows: Number(row.rows) };
}
