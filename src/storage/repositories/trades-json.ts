// A page of trades as the JSON text the database builds (the Trade resource's fields, in order),
// with the row counts its price depends on: the /trades hot path.
import { type Kysely, sql } from 'kysely';
import { CHAMBER_OF_SOURCE, EXECUTIVE_ROW_SOURCES } from '../../domain/sources.js';
import {
  chargedPageQuery,
  chargesWithPage,
  PAGE_CHARGE_PARAMS,
  type PageChargeColumns,
  type PageCharged,
  type PageChargeValues,
  pageChargedOf,
} from '../charges/with-page.js';
import { compiledOnce } from '../compiled-queries.js';
import {
  commaListAsJsonArray,
  isSqlite,
  javascriptJsonNumber,
  javascriptJsonNumberCall,
  wholeDaysSince,
} from '../dialect.js';
import { dateLiteral, pageLimit } from '../list-order.js';
import type { Database } from '../schema.js';
import { preparedQuery, syncSqliteOf } from '../sqlite-hot-path.js';
import {
  orderFromIndex,
  type Page,
  pageKeysQuery,
  pageQuery,
  TRADE_SELECTION,
  type TradeBaseQuery,
  type TradeFilter,
  type TradeOrder,
  tradesByIdsQuery,
} from './trades.js';

/** A page of trades as the JSON text of its array, with the row counts its price depends on. */
export interface TradePageJson {
  /**
   * The JSON text: a string, or on SQLite for a page of more than BYTES_PAGE_ROWS rows its UTF-8
   * bytes as the database built them (a Buffer). Either goes to the socket as it is.
   */
  json: string | Buffer;
  rows: number;
  executiveRows: number;
  /** The call's charge, when the page's statement took it (PostgreSQL, a charge asked for). */
  charged?: PageCharged;
}

/**
 * On SQLite a page that may hold more rows than this comes as its UTF-8 bytes (a BLOB, which
 * better-sqlite3 hands over as a Buffer) instead of a string. As a string, a 1000-row page
 * (1.1 MB) was decoded from UTF-8, measured and encoded back on the way out, and the short-lived
 * megabyte strings drove collections of the whole heap: 7.1 against 5.3 ms of CPU per call. A small
 * page gains nothing measurable from the bytes, and its buffers, held outside the JavaScript heap
 * until the next young collection, raised the server's memory after a minute of 25-row calls from
 * 192 to 238 MB (BENCHMARKS.md).
 */
export const BYTES_PAGE_ROWS = 100;

const CHAMBER_SQL = sql<string>`case ${sql.join(
  Object.entries(CHAMBER_OF_SOURCE).map(
    ([source, chamber]) => sql`when r.source = ${sql.lit(source)} then ${sql.lit(chamber)}`,
  ),
  sql` `,
)} else 'House' end`;

/**
 * The page of findTrades as one JSON array built by the database, so that no JS object is made
 * per row and field: SQLite `json_group_array(json_object(...))`, PostgreSQL `row_to_json` of each
 * of the page's rows joined in order (`json_build_object` takes at most 100 arguments: 51 fields
 * need 102). `fields` is
 * the resource's field list in its order: each a column of the trade query, or `chamber` and
 * `days_held` (computed here as the resource computes them); the fields in `nulled` are null
 * (plan gating). Numbers keep their value; the database may spell one differently from
 * JSON.stringify (SQLite `1001.0` and 17 digits, PostgreSQL `1e-05` for 0.00001), which JSON
 * parsers read as the same number. Each query shape (which filters, how many values each, the
 * order, the gated fields) is built and compiled once; a call binds its values: on SQLite a
 * statement prepared once and run synchronously (sqlite-hot-path.ts), on PostgreSQL the compiled
 * text sent with its values (compiled-queries.ts).
 */
export async function findTradesJson(
  db: Kysely<Database>,
  filter: TradeFilter,
  order: TradeOrder,
  page: Page,
  shape: TradeJsonShape,
  charge?: PageChargeValues,
): Promise<TradePageJson> {
  const syncSqlite = syncSqliteOf(db);
  const sqlite = isSqlite(db as unknown as Kysely<unknown>);
  const asBytes = sqlite && page.limit > BYTES_PAGE_ROWS;
  // Sector names are lowercased in the query; that shape is built per call.
  // On PostgreSQL a metered call's charge is taken in the page's own statement (charges/with-page.ts).
  const withCharge = charge !== undefined && chargesWithPage(db) ? charge : undefined;
  if ((sqlite && !syncSqlite) || filter.sectors?.length) {
    const query = tradesJsonQuery(db, pageQuery(db, filter, order, page), shape, asBytes);
    if (!withCharge) return pageOf(await query.executeTakeFirstOrThrow());
    const { rows } = await chargedPageQuery(query, withCharge).execute(db);
    return chargedPageOf(rows[0] as (TradeJsonRow & PageChargeColumns) | undefined);
  }
  // Each query shape (which filters, how many values each, the order, the gated fields) is built
  // and compiled once; a call binds its values (sqlite-hot-path.ts on SQLite, compiled-queries.ts
  // on PostgreSQL). On SQLite the disclosure range, the sources and the limit are written into the
  // SQL instead (plannedLiterals): bound, they made SQLite prepare the statement again on every run.
  // On PostgreSQL the values stay bound, but a first page's limit and offset are written in
  // (firstPageLiterals), and a page that no index gives in order (one ticker's or member's
  // trades, most sorts) chooses its ids first (pageByKeysFirst).
  const named = namedFilter(filter);
  const planned = syncSqlite ? plannedLiterals(filter, page) : firstPageLiterals(filter, page);
  if (!syncSqlite && planned === ALL_BOUND && !orderFromIndex(filter, order)) {
    return pageByKeysFirst(db, named, order, page, shape, withCharge);
  }
  const key = `trades.json${asBytes ? '.bytes' : ''}:${named.key}:${planned.key}:${order.column}:${order.direction}:${shape.key}`;
  const build = (param: (name: string) => never) =>
    tradesJsonQuery(
      db,
      pageQuery(db, { ...named.build(param), ...planned.filter }, order, {
        limit: planned.limit ?? param('limit'),
        offset: planned.offset ?? param('offset'),
      }),
      { ...shape, today: param('today') },
      asBytes,
    );
  const values = { ...named.values, limit: page.limit, offset: page.offset, today: shape.today };
  if (syncSqlite) return pageOf(preparedQuery<string>(syncSqlite, key, build).get(values) as TradeJsonRow);
  return runJsonPage(db, key, build, values, withCharge);
}

/**
 * PostgreSQL, a page that no index gives in order (one ticker's or member's trades, a sort other
 * than by disclosure date or id; pageQuery picks such a page's ids before reading its rows): its
 * ids are chosen in a statement of their own, then its rows are read and written as JSON by those
 * ids. The ids' statement is small, so PostgreSQL plans it for each call's values at little cost;
 * the fifty-field JSON statement reads rows by primary key, a plan right for any ids, which
 * PostgreSQL keeps. As one statement, the page was planned again on every call once its generic
 * plan, costed for an average ticker and a bound limit, looked dearer than each call's own, as it
 * did on a long history: planning that grew with the history. The second statement is a round
 * trip, a fixed price (BENCHMARKS.md). Pages in disclosure order keep one statement: there the
 * bound values change the plan (a chamber over ten years, 1000 rows), and the round trip and a
 * generic sort of 1000 ids cost more than planning.
 */
async function pageByKeysFirst(
  db: Kysely<Database>,
  named: ReturnType<typeof namedFilter>,
  order: TradeOrder,
  page: Page,
  shape: TradeJsonShape,
  charge: PageChargeValues | undefined,
): Promise<TradePageJson> {
  const keys = await compiledOnce<string, { id: number }>(
    db,
    `trades.keys:${named.key}:${order.column}:${order.direction}`,
    (param) =>
      pageKeysQuery(db, named.build(param), order, { limit: param('limit'), offset: param('offset') }),
  ).execute({ ...named.values, limit: page.limit, offset: page.offset });
  const build = (param: (name: string) => never) =>
    tradesJsonQuery(
      db,
      tradesByIdsQuery(db, param('ids'), order),
      { ...shape, today: param('today') },
      false,
    );
  const values = { ids: JSON.stringify(keys.map((key) => Number(key.id))), today: shape.today };
  return runJsonPage(
    db,
    `trades.json.ids:${order.column}:${order.direction}:${shape.key}`,
    build,
    values,
    charge,
  );
}

/** PostgreSQL: the page statement `build` compiled once as `key`, run with `values` (and the call's charge). */
async function runJsonPage(
  db: Kysely<Database>,
  key: string,
  build: (param: (name: string) => never) => ReturnType<typeof tradesJsonQuery>,
  values: Record<string, unknown>,
  withCharge: PageChargeValues | undefined,
): Promise<TradePageJson> {
  if (withCharge) {
    const charged = compiledOnce<string, TradeJsonRow & PageChargeColumns>(db, `${key}:charged`, (param) => {
      const chargeParams = Object.fromEntries(
        PAGE_CHARGE_PARAMS.map((name) => [name, param(`charge.${name}`)]),
      );
      const query = chargedPageQuery(build(param), chargeParams as unknown as PageChargeValues);
      return { compile: () => query.compile(db) };
    });
    const chargeValues = Object.fromEntries(
      PAGE_CHARGE_PARAMS.map((name) => [`charge.${name}`, withCharge[name]]),
    );
    const [row] = await charged.execute({ ...values, ...chargeValues });
    return chargedPageOf(row);
  }
  const [row] = await compiledOnce<string, TradeJsonRow>(db, key, build).execute(values);
  if (!row) throw new Error('trade JSON: the page query returned no row');
  return pageOf(row);
}

/** The page and the charge its statement took. */
function chargedPageOf(row: (TradeJsonRow & PageChargeColumns) | undefined): TradePageJson {
  if (!row) throw new Error('trade JSON: the page query returned no row');
  return { ...pageOf(row), charged: pageChargedOf(row) };
}

interface PlannedLiterals {
  key: string;
  filter: Pick<TradeFilter, 'disclosedFrom' | 'disclosedTo' | 'sources'>;
  limit: number | undefined;
  offset?: number;
}

const ALL_BOUND: PlannedLiterals = { key: '', filter: {}, limit: undefined };

/**
 * The largest first page given a generic plan. PostgreSQL's generic plan guesses that a bound
 * range keeps 0.5% of the trades (574 of the bench's 114,720); for a page well under that guess
 * it walks the disclosure index newest first, as every window's own plan does, but for a larger
 * page it joins and sorts the whole range (ten years, 1000 rows: 350 ms against 30 ms).
 */
const GENERIC_PLAN_LIMIT = 100;

/** The filters of a page that only windows the disclosures (the default /trades call). */
const WINDOW_ONLY: ReadonlySet<string> = new Set([
  'disclosedFrom',
  'disclosedTo',
  'includeSuperseded',
  'includeFlagged',
]);

/**
 * PostgreSQL: a first page (offset 0) of at most GENERIC_PLAN_LIMIT rows of a window-only filter
 * has its limit and offset written into the SQL, every other value bound. A named statement whose limit or offset is bound never
 * gets PostgreSQL's cached generic plan (the planner assumes such a limit keeps a tenth of the
 * rows, so the generic plan looks dearer than each call's custom one) and is planned again on
 * every call; written in, the statement is planned once per connection (0.57 against 1.07 ms of
 * server time per 25-row page, BENCHMARKS.md). The generic plan does not know the bound values:
 * for a window alone it is the plan every window gets (the disclosure index, newest first), but
 * with other filters it can be far off (ten years of one chamber, 1000 rows: 171 ms against
 * 21 ms per call), so those stay bound and planned per call (one ticker's or member's page
 * chooses its ids in a small statement first: pageByKeysFirst). Only first pages: each limit is its
 * own statement, and deep offsets would spend the process's named statements
 * (compiled-queries.ts).
 */
function firstPageLiterals(filter: TradeFilter, page: Page): PlannedLiterals {
  if (page.offset !== 0 || !Number.isSafeInteger(page.limit) || page.limit > GENERIC_PLAN_LIMIT)
    return ALL_BOUND;
  const windowOnly = Object.entries(filter).every(
    ([field, value]) => value === undefined || WINDOW_ONLY.has(field),
  );
  if (!windowOnly) return ALL_BOUND;
  return {
    key: `#${page.limit}@0`,
    filter: {},
    limit: sql.lit(page.limit) as unknown as number,
    offset: sql.lit(0) as unknown as number,
  };
}

const SOURCE_NAME = /^[a-z_]{1,32}$/;

/**
 * The values of the page query that SQLite's planner reads when the statement is prepared: the
 * disclosure range and the sources (compared with the indexes' statistics) and the LIMIT. SQLite
 * marks a statement whose plan depends on a bound value as expired whenever that value is bound
 * again, so with them bound every run parsed and planned the fifty-field JSON query anew: 220 µs
 * per 25-row page against 90 µs with them written into the SQL (BENCHMARKS.md).
 * Written in, each distinct (range, limit, sources) is its own statement, prepared once: the
 * default window changes once a day, and the prepared-statement cache keeps the most recent
 * shapes. Only values whose form is known are written in (ISO dates, integers, source names);
 * anything else stays bound.
 */
function plannedLiterals(filter: TradeFilter, page: Page): PlannedLiterals {
  const from = dateLiteral(filter.disclosedFrom);
  const to = dateLiteral(filter.disclosedTo);
  const limit = Number.isSafeInteger(page.limit) ? page.limit : undefined;
  // The sources (chambers) are a handful of fixed names, each with its own index statistics.
  const sources = filter.sources?.every((source) => SOURCE_NAME.test(source)) ? filter.sources : undefined;
  const planned: PlannedLiterals['filter'] = {};
  // A literal stands where the builder expects the value (as the placeholders of `param` do).
  if (from !== undefined) planned.disclosedFrom = from;
  if (to !== undefined) planned.disclosedTo = to;
  if (sources !== undefined) planned.sources = sources.map((source) => sql.lit(source) as unknown as string);
  return {
    key: `${from === undefined ? '?' : filter.disclosedFrom}..${to === undefined ? '?' : filter.disclosedTo}#${limit ?? '?'}@${sources?.join('|') ?? '?'}`,
    filter: planned,
    limit: limit === undefined ? undefined : (pageLimit(limit) as number),
  };
}

/** The statement-cache key part of a shape's fields and nulled fields. */
export function tradeJsonShapeKey(fields: readonly string[], nulled: ReadonlySet<string>): string {
  return `${[...nulled].join(',')}:${fields.join(',')}`;
}

export interface TradeJsonShape {
  fields: readonly string[];
  nulled: ReadonlySet<string>;
  /**
   * Names `fields` and `nulled` in the key of the compiled statement: a shape is a constant of its
   * caller, so the caller writes this once (`tradeJsonShapeKey`) instead of every call joining them.
   */
  key: string;
  /** The fields that are JSON numbers with a fraction (written as JavaScript writes them). */
  reals: ReadonlySet<string>;
  today: string;
}

interface TradeJsonRow {
  json: string | Buffer;
  rows: number;
  executive_rows: number;
}

function pageOf(row: TradeJsonRow): TradePageJson {
  return { json: row.json, rows: row.rows - row.executive_rows, executiveRows: row.executive_rows };
}

/** Whether a row of the page (`r`) is charged as an executive row (the price table's `perExecutiveRow`). */
const executiveRow =
  EXECUTIVE_ROW_SOURCES.length > 0
    ? sql`r.source in (${sql.join(EXECUTIVE_ROW_SOURCES.map((source) => sql.lit(source)))})`
    : sql`false`;

/** `inner`: the page's trades with every column, in order (pageQuery, tradesByIdsQuery). */
function tradesJsonQuery(
  db: Kysely<Database>,
  inner: TradeBaseQuery,
  shape: TradeJsonShape,
  asBytes: boolean,
) {
  const counts = [
    sql<number>`count(*)`.as('rows'),
    sql<number>`coalesce(sum(case when ${executiveRow} then 1 else 0 end), 0)`.as('executive_rows'),
  ];
  if (isSqlite(db as unknown as Kysely<unknown>)) {
    const members = shape.fields.map((field) => sql`${sql.lit(field)}, ${tradeJsonValue(db, field, shape)}`);
    const json = sql<string | Buffer>`coalesce(json_group_array(json_object(${sql.join(members)})), '[]')`;
    return db
      .selectFrom(inner.as('r'))
      .select([(asBytes ? sql<string | Buffer>`cast(${json} as blob)` : json).as('json'), ...counts]);
  }
  // PostgreSQL: the resource's fields as the columns of a row, in order, each row as
  // row_to_json (its keys are the column names, no spaces) and the rows joined with commas in
  // the page subquery's order: the bytes JSON serialization of the objects gives (json_agg would
  // put ", " and a line break between rows). Numbers with a fraction are written as stored:
  // PostgreSQL writes a double as JavaScript does except below 1e-4 and from 1e15 (an exponent
  // where JavaScript writes digits), for -0, and for infinities and NaN (quoted). A row holding
  // one of those (notAsJavascript) is built again field by field with
  // javascriptJsonNumber, through its PL/pgSQL function (a call the planner does not expand).
  // Converting every number inline made the page query cost twice as much on the server, most of
  // it planning (BENCHMARKS.md, "GET /trades on PostgreSQL").
  const fields = db
    .selectFrom(inner.as('r'))
    .select(shape.fields.map((field) => tradeJsonValue(db, field, { ...shape, reals: NO_REALS }).as(field)));
  // `offset 0` keeps the row's text computed once (not inlined into both branches below).
  const texts = db
    .selectFrom(fields.as('r'))
    .select(sql<string>`row_to_json(r)::text`.as('row_json'))
    .selectAll('r')
    .offset(sql.lit(0));
  const careful = sql`(select row_to_json(c)::text from (select ${sql.join(
    shape.fields.map((field) =>
      shape.reals.has(field) && !shape.nulled.has(field)
        ? sql`${javascriptJsonNumberCall(db as unknown as Kysely<unknown>, sql.ref(`r.${field}`))} as ${sql.id(field)}`
        : sql`${sql.ref(`r.${field}`)} as ${sql.id(field)}`,
    ),
  )}) as c)`;
  const rowJson = sql<string>`case when ${notAsJavascript(shape)} then ${careful} else r.row_json end`;
  return db
    .selectFrom(texts.as('r'))
    .select([sql<string>`coalesce('[' || string_agg(${rowJson}, ',') || ']', '[]')`.as('json'), ...counts]);
}

const NO_REALS: ReadonlySet<string> = new Set();

/**
 * Whether a page row holds a double that PostgreSQL's row_to_json writes otherwise than
 * JavaScript: one from 1e15 up (an exponent), an infinity or NaN (quoted; NaN sorts above every
 * number in PostgreSQL), or one below 1e-4 (an exponent), -0 among them. Zeros and a few small
 * values take the careful way too, which writes them right. Two calls over the row's reals: the
 * regular expression over each row's text that stood here cost the server 0.13 ms of a 25-row
 * page's 0.5 (BENCHMARKS.md's notes).
 */
function notAsJavascript(shape: TradeJsonShape) {
  const reals = shape.fields.filter((field) => shape.reals.has(field) && !shape.nulled.has(field));
  if (reals.length === 0) return sql<boolean>`false`;
  const magnitudes = sql.join(reals.map((field) => sql`abs(${sql.ref(`r.${field}`)})`));
  return sql<boolean>`(greatest(${magnitudes}) >= 1e15::float8 or least(${magnitudes}) < 1e-4::float8)`;
}

/**
 * A filter as a query shape: its key (which fields, how many values each), its values by name,
 * and the same filter with every value replaced by its named placeholder.
 */
function namedFilter(filter: TradeFilter) {
  const values: Record<string, unknown> = {};
  const parts: string[] = [];
  const entries = Object.entries(filter).filter(([, value]) => value !== undefined) as [
    keyof TradeFilter,
    unknown,
  ][];
  for (const [field, value] of entries) {
    if (Array.isArray(value)) {
      parts.push(`${field}[${value.length}]`);
      value.forEach((item, index) => {
        values[`${field}.${index}`] = item;
      });
    } else if (typeof value === 'boolean') parts.push(`${field}=${value}`);
    else {
      parts.push(field);
      values[field] = value;
    }
  }
  const build = (param: (name: string) => never): TradeFilter => {
    const named: Record<string, unknown> = {};
    for (const [field, value] of entries) {
      if (Array.isArray(value)) named[field] = value.map((_, index) => param(`${field}.${index}`));
      else if (typeof value === 'boolean') named[field] = value;
      else named[field] = param(field);
    }
    return named as TradeFilter;
  };
  return { key: parts.join('&'), values, build };
}

/** The output names of the trade query's columns ('p.name as politician_name' -> politician_name). */
const TRADE_COLUMNS = new Set(
  TRADE_SELECTION.map((selection) => selection.split(' as ')[1] ?? selection.split('.')[1] ?? selection),
);

function tradeJsonValue(db: Kysely<Database>, field: string, shape: TradeJsonShape) {
  if (shape.nulled.has(field)) return sql`null`;
  if (field === 'chamber') return CHAMBER_SQL;
  if (field === 'days_held')
    return wholeDaysSince(db as unknown as Kysely<unknown>, sql.ref('r.transaction_date'), shape.today);
  // Stored 1/0 (SQLite has no boolean): written as JSON true/false.
  if (field === 'cap_gains_over_200')
    return isSqlite(db as unknown as Kysely<unknown>)
      ? sql`json(case ${sql.ref(`r.${field}`)} when 1 then 'true' when 0 then 'false' end)`
      : sql`case ${sql.ref(`r.${field}`)} when 1 then true when 0 then false end`;
  if (field === 'quality_flags')
    return commaListAsJsonArray(db as unknown as Kysely<unknown>, sql.ref('r.quality_flags'));
  if (!TRADE_COLUMNS.has(field)) throw new Error(`trade JSON: ${field} is not a column of the trade query`);
  if (shape.reals.has(field))
    return javascriptJsonNumber(db as unknown as Kysely<unknown>, sql.ref(`r.${field}`));
  return sql.ref(`r.${field}`);
}
