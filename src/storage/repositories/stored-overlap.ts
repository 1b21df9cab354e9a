// The stored hits of GET /overlap at its widest window (migration 0096-stored-overlap;
// docs/analytics.md, "Stored results"): their replacement by a rebuild and the reads a request
// makes of them.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import {
  isSqlite,
  jsonArrayElements,
  jsonArrayOf,
  jsonMember,
  jsonMemberValue,
  jsonObjectOf,
  nestedJson,
} from '../dialect.js';
import type { OverlapHitsTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import { markStoredResult } from './stored-analytics.js';
import { inStoredTradeRange, type TradeRangeFilter } from './trade-range.js';
import { BYTES_PAGE_ROWS } from './trades-json.js';

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
  return storedOverlapPageQuery(db, range, asked, page).execute();
}

function storedOverlapPageQuery(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  asked: OverlapAsked,
  page: { limit: number; offset: number },
) {
  return storedHits(db, range, asked)
    .select([
      't.trade_id',
      't.transaction_date',
      't.evidence',
      't.lobbying_days',
      't.contract_days',
      't.campaign_days',
    ])
    .orderBy('t.transaction_date', 'desc')
    .orderBy('t.trade_id', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}

/** The links the database writes: a lobbying filing's document (its UUID between `before` and `after`), an award's page. */
export interface OverlapLinkUrls {
  lobbying: { before: string; after: string };
  /** An award whose key starts with `keyPrefix` has a page at `base` + key; others none. */
  contract: { keyPrefix: string; base: string };
}

/** A hit's trade: its JSON key and the column of the page's join it comes from. */
const HIT_TRADE: ReadonlyArray<readonly [string, string]> = [
  ['id', 't.id'],
  ['politician_id', 't.politician_id'],
  ['politician_name', 'p.name'],
  ['politician_slug', 'p.slug'],
  ['party', 'p.party'],
  ['chamber', 'p.chamber'],
  ['ticker', 't.ticker'],
  ['trade_type', 't.trade_type'],
  ['transaction_date', 't.transaction_date'],
  ['disclosure_date', 't.disclosure_date'],
  ['amount_range', 't.amount_range'],
  ['amount_low', 't.amount_low'],
  ['amount_high', 't.amount_high'],
];

/** Each link kind: its list in the answer and the stored evidence. */
const KIND_LISTS: ReadonlyArray<readonly [OverlapKind, string]> = [
  ['lobbying', 'lobbying'],
  ['contract', 'contracts'],
  ['campaign', 'campaign'],
];

/**
 * storedOverlapPage's hits as the text of the page's JSON array, each with its trade, link kinds,
 * seats and the records of the asked kinds within the window, with their links (the objects
 * services/overlap.ts builds from the same rows; a hit whose trade is gone is left out, as there).
 * On SQLite a page of more than BYTES_PAGE_ROWS hits comes as its UTF-8 bytes.
 */
export async function storedOverlapPageJson(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  asked: OverlapAsked,
  page: { limit: number; offset: number },
  urls: OverlapLinkUrls,
): Promise<{ json: string | Buffer; rows: number }> {
  const plain = db as unknown as Kysely<unknown>;
  const window = asked.windowDays;
  const element = sql.ref('e.value');
  const member = (key: string) => [key, jsonMember(plain, element, key)] as const;
  const text = (key: string) => jsonMemberValue(plain, element, key);
  const lobbyingUrl = sql`cast(${urls.lobbying.before} as text) || ${text('filing_uuid')} || cast(${urls.lobbying.after} as text)`;
  const awardKey = text('award_key');
  const contractUrl = sql`case when substr(${awardKey}, 1, ${sql.lit(urls.contract.keyPrefix.length)}) = ${urls.contract.keyPrefix}
    then cast(${urls.contract.base} as text) || ${awardKey} end`;
  // Each record as the answer writes it (a lobbying filing and a contract gain their link).
  const records: Record<OverlapKind, RawBuilder<unknown>> = {
    lobbying: jsonObjectOf(plain, [
      member('lobbying_filing_id'),
      member('filing_uuid'),
      ['url', lobbyingUrl],
      ...['client_name', 'filed_date', 'amount', 'days_from_trade', 'committees'].map(member),
    ]),
    contract: jsonObjectOf(plain, [
      member('contract_id'),
      member('award_id'),
      ['url', contractUrl],
      ...['award_date', 'amount', 'days_from_trade', 'committees'].map(member),
    ]),
    campaign: nestedJson(plain, element),
  };
  const evidence = sql.ref('h.evidence');
  const within = (kind: OverlapKind, list: string) => {
    if (!asked.kinds.includes(kind)) return nestedJson(plain, sql`'[]'`);
    const near = sql`abs(cast(${text('days_from_trade')} as integer)) <= ${window}`;
    return nestedJson(
      plain,
      sql`(select ${jsonArrayOf(plain, records[kind], sql`e.position`)} from ${jsonArrayElements(plain, evidence, list)} where ${near})`,
    );
  };
  const kindNames = KIND_LISTS.filter(([kind]) => asked.kinds.includes(kind)).map(
    ([kind]) => sql`case when ${sql.ref(`h.${kind}_days`)} <= ${window} then ${`"${kind}",`} else '' end`,
  );
  const linkKinds = nestedJson(plain, sql`'[' || rtrim(${sql.join(kindNames, sql` || `)}, ',') || ']'`);
  const hit = jsonObjectOf(plain, [
    [
      'trade',
      jsonObjectOf(
        plain,
        HIT_TRADE.map(([key, column]) => [key, sql.ref(column)] as const),
      ),
    ],
    ['link_kinds', linkKinds],
    ['committees_at_trade', jsonMember(plain, evidence, 'seats')],
    ...KIND_LISTS.map(([kind, list]) => [list, within(kind, list)] as const),
  ]);
  const row = await db
    .selectFrom(storedOverlapPageQuery(db, range, asked, page).as('h'))
    .innerJoin('trades as t', 't.id', 'h.trade_id')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .select([
      jsonArrayOf(
        plain,
        hit,
        sql`h.transaction_date desc, h.trade_id desc`,
        isSqlite(plain) && page.limit > BYTES_PAGE_ROWS,
      ).as('json'),
      sql<number | string>`count(*)`.as('rows'),
    ])
    .executeTakeFirstOrThrow();
  return { json: row.json, rows: Number(row.rows) };
}
