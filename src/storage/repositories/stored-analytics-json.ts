// A page of the stored suspicious-timing hits as the JSON text the database writes (the hits of
// resources/suspicious-timing.ts, fields in order): a thousand hits go out without a JavaScript
// object per hit, trade and piece of evidence, and without serializing a megabyte of text. The
// hit's trade and the page's join with its trades in page order serve the stored overlap's page too.
import { type AliasedSelectQueryBuilder, type Kysely, type RawBuilder, sql } from 'kysely';
import { isSqlite, javascriptJsonNumber, jsonMember, jsonObjectOf, jsonTextsArray } from '../dialect.js';
import type { Database } from '../schema.js';
import { storedTimingPageQuery } from './stored-analytics.js';
import { inTradeRange, type TradeRangeFilter } from './trade-range.js';
import { BYTES_PAGE_ROWS } from './trades-json.js';

/**
 * Where each field a stored hit's trade may carry comes from in the page's join (`t` the trade,
 * `p` its member, `f` its filing): the resources list the fields and their order.
 */
const TRADE_FIELD_COLUMNS: Readonly<Record<string, string>> = {
  id: 't.id',
  politician_id: 't.politician_id',
  politician_name: 'p.name',
  politician_slug: 'p.slug',
  party: 'p.party',
  chamber: 'p.chamber',
  ticker: 't.ticker',
  asset_description: 't.asset_description',
  trade_type: 't.trade_type',
  direction: 't.trade_action',
  transaction_date: 't.transaction_date',
  disclosure_date: 't.disclosure_date',
  amount_range: 't.amount_range',
  amount_low: 't.amount_low',
  amount_high: 't.amount_high',
  owner: 't.owner',
  sector: 't.sector',
  industry: 't.industry',
  filing_url: 'f.url',
};

/** A hit's trade as a JSON object of these fields, in this order. */
export function hitTradeJson(db: Kysely<Database>, fields: readonly string[]): RawBuilder<unknown> {
  return jsonObjectOf(
    db as unknown as Kysely<unknown>,
    fields.map((field) => {
      const column = TRADE_FIELD_COLUMNS[field];
      if (!column) throw new Error(`a stored hit's trade has no column for ${field}`);
      return [field, sql.ref(column)] as const;
    }),
  );
}

/** The trade's later price move (doubles). */
const LATER_MOVE = ['price_on_trade_date', 'gain_30d', 'gain_90d', 'alpha_30d', 'alpha_90d'] as const;

/** The stored evidence's parts, in the hit's order around days_between. */
const EVIDENCE_BEFORE = ['action', 'member_roles'] as const;
const EVIDENCE_AFTER = ['bill_match'] as const;

/**
 * storedTimingPage's hits with their trades' fields and later moves, as the text of the page's
 * JSON array (the objects findTimingHits builds from the same rows; a hit whose trade is no longer
 * in the range is left out, as there). `nulled`: fields written null (the caller's plan-gated
 * ones). On SQLite a page of more than BYTES_PAGE_ROWS hits comes as its UTF-8 bytes.
 */
export async function storedTimingPageJson(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  asked: {
    daysBefore: number;
    kinds: readonly string[];
    /** The hit's trade fields, in order. */
    tradeFields: readonly string[];
    nulled: ReadonlySet<string>;
  },
  page: { limit: number; offset: number },
): Promise<{ json: string | Buffer; rows: number }> {
  const plain = db as unknown as Kysely<unknown>;
  const evidence = (key: string): [string, RawBuilder<unknown>] => [
    key,
    jsonMember(plain, sql.ref('h.evidence'), key),
  ];
  const laterMove = jsonObjectOf(
    plain,
    LATER_MOVE.map(
      (field) =>
        [
          field,
          asked.nulled.has(field) ? sql`null` : javascriptJsonNumber(plain, sql.ref(`t.${field}`)),
        ] as const,
    ),
  );
  const hit = jsonObjectOf(plain, [
    ['trade', hitTradeJson(db, asked.tradeFields)],
    ...EVIDENCE_BEFORE.map(evidence),
    ['days_between', sql.ref('h.days_between')],
    ...EVIDENCE_AFTER.map(evidence),
    ['later_move', laterMove],
  ]);
  const hits = storedTimingPageQuery(db, range, asked.daysBefore, asked.kinds, page);
  const sqlite = isSqlite(plain);
  const row = await withTradesInPageOrder(db, hits.as('h'))
    .leftJoin('filings as f', 'f.id', 't.filing_id')
    .where(inTradeRange(range))
    .select([
      jsonTextsArray(
        plain,
        sqlite ? hit : sql`cast(${hit} as text)`,
        sql`h.rank`,
        sqlite && page.limit > BYTES_PAGE_ROWS,
      ).as('json'),
      sql<number | string>`count(*)`.as('rows'),
    ])
    .executeTakeFirstOrThrow();
  return { json: row.json, rows: Number(row.rows) };
}

/**
 * A page of stored hits (`trade_id` each) as `h`, joined with its trades (`t`) and their members
 * (`p`). On SQLite the page stays the outer loop (cross joins, which SQLite never reorders), so
 * the rows arrive in the page's order, as jsonTextsArray takes them there.
 */
export function withTradesInPageOrder<H extends { trade_id: number }>(
  db: Kysely<Database>,
  hits: AliasedSelectQueryBuilder<H, 'h'>,
) {
  const page = db.selectFrom(hits);
  if (isSqlite(db as unknown as Kysely<unknown>))
    return page
      .crossJoin('trades as t')
      .crossJoin('politicians as p')
      .whereRef('t.id', '=', 'h.trade_id')
      .whereRef('p.id', '=', 't.politician_id');
  return page
    .innerJoin('trades as t', 't.id', 'h.trade_id')
    .innerJoin('politicians as p', 'p.id', 't.politician_id');
}
