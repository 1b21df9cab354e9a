// Daily bars, series metadata, corporate actions, data-quality flags and provider fetches.
import { type Expression, type Kysely, sql } from 'kysely';
import { CLOSE_BASIS_ORDER } from '../../domain/close-basis.js';
import { chunk, readInBatches, rowsPerInsert } from '../batch.js';
import { insertRows, updateRowsByKey } from '../bulk-update.js';
import type { PriceBarsTable, PriceSeriesTable } from '../schema/market.js';
import type { Database } from '../schema.js';

export type BarRow = Omit<PriceBarsTable, 'symbol' | 'source'>;

export type SeriesMeta = PriceSeriesTable;

export interface BarWriteResult {
  added: number;
  changed: number;
  unchanged: number;
  /** The earliest date added or changed, or null when nothing was. */
  firstChanged: string | null;
}

/** Appends without spreading: a batch can hold more rows than a call may take arguments. */
function append<T>(target: T[], rows: readonly T[]): void {
  for (const row of rows) target.push(row);
}

const BAR_FIELDS = ['open', 'high', 'low', 'close', 'adj_close', 'volume'] as const;

function sameBar(a: BarRow, b: BarRow): boolean {
  return BAR_FIELDS.every((field) => {
    const x = a[field];
    const y = b[field];
    if (x === null || y === null) return x === y;
    // Stored doubles round-trip exactly on both dialects; the tolerance only absorbs text-to-float noise.
    return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x));
  });
}

/** Writes one symbol-source series: inserts new days, updates changed ones, leaves the rest. */
export async function writeBars(
  db: Kysely<Database>,
  symbol: string,
  source: string,
  bars: readonly BarRow[],
): Promise<BarWriteResult> {
  const existing = await db
    .selectFrom('price_bars')
    .select(['date', 'open', 'high', 'low', 'close', 'adj_close', 'volume'])
    .where('symbol', '=', symbol)
    .where('source', '=', source)
    .execute();
  const known = new Map(existing.map((row) => [row.date, row]));
  const added: BarRow[] = [];
  const changed: BarRow[] = [];
  for (const bar of bars) {
    const before = known.get(bar.date);
    if (!before) added.push(bar);
    else if (!sameBar(before, bar)) changed.push(bar);
  }
  await insertRows(
    db,
    'price_bars',
    ['symbol', 'source', 'date', 'open', 'high', 'low', 'close', 'adj_close', 'volume'],
    added.map((bar) => ({ symbol, source, ...bar })),
  );
  for (const bar of changed) {
    await db
      .updateTable('price_bars')
      .set({
        open: bar.open,
        high: bar.high,
        low: bar.low,
        close: bar.close,
        adj_close: bar.adj_close,
        volume: bar.volume,
      })
      .where('symbol', '=', symbol)
      .where('source', '=', source)
      .where('date', '=', bar.date)
      .execute();
  }
  const touched = [...added, ...changed].map((bar) => bar.date).sort();
  return {
    added: added.length,
    changed: changed.length,
    unchanged: bars.length - added.length - changed.length,
    firstChanged: touched[0] ?? null,
  };
}

export async function findSeriesMeta(
  db: Kysely<Database>,
  symbol: string,
  source: string,
): Promise<SeriesMeta | undefined> {
  return db
    .selectFrom('price_series')
    .selectAll()
    .where('symbol', '=', symbol)
    .where('source', '=', source)
    .executeTakeFirst();
}

/** Recomputes a series' span and count from its bars and stores its metadata. */
export async function saveSeriesMeta(
  db: Kysely<Database>,
  meta: Omit<SeriesMeta, 'first_date' | 'last_date' | 'bar_count'>,
): Promise<void> {
  const span = await db
    .selectFrom('price_bars')
    .select((eb) => [
      eb.fn.min('date').as('first_date'),
      eb.fn.max('date').as('last_date'),
      eb.fn.countAll<number>().as('bar_count'),
    ])
    .where('symbol', '=', meta.symbol)
    .where('source', '=', meta.source)
    .executeTakeFirst();
  if (!span?.first_date || !span.last_date) return;
  const row = {
    ...meta,
    first_date: span.first_date,
    last_date: span.last_date,
    bar_count: Number(span.bar_count),
  };
  await db
    .insertInto('price_series')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['symbol', 'source']).doUpdateSet({
        format: row.format,
        close_basis: row.close_basis,
        priority: row.priority,
        first_date: row.first_date,
        last_date: row.last_date,
        bar_count: row.bar_count,
        origin: row.origin,
        updated_at: row.updated_at,
        history_changed_at: row.history_changed_at,
      }),
    )
    .execute();
}

export interface ActionRow {
  date: string;
  kind: string;
  value: number;
}

/** Replaces a series' corporate actions; returns how many are new. */
export async function replaceActions(
  db: Kysely<Database>,
  symbol: string,
  source: string,
  actions: readonly ActionRow[],
): Promise<number> {
  const existing = await db
    .selectFrom('corporate_actions')
    .select(['date', 'kind', 'value'])
    .where('symbol', '=', symbol)
    .where('source', '=', source)
    .execute();
  const key = (action: ActionRow) => `${action.date}|${action.kind}|${action.value}`;
  const before = new Set(existing.map(key));
  const after = new Set(actions.map(key));
  const unchanged = before.size === after.size && [...after].every((entry) => before.has(entry));
  if (unchanged) return 0;
  await db
    .deleteFrom('corporate_actions')
    .where('symbol', '=', symbol)
    .where('source', '=', source)
    .execute();
  for (const batch of chunk(actions, rowsPerInsert(5))) {
    await db
      .insertInto('corporate_actions')
      .values(batch.map((action) => ({ symbol, source, ...action })))
      .execute();
  }
  return [...after].filter((entry) => !before.has(entry)).length;
}

export async function seriesOfSymbols(
  db: Kysely<Database>,
  symbols: readonly string[],
): Promise<SeriesMeta[]> {
  return readInBatches(symbols, (batch) =>
    db.selectFrom('price_series').selectAll().where('symbol', 'in', batch).execute(),
  );
}

export async function allSeriesMeta(db: Kysely<Database>): Promise<SeriesMeta[]> {
  return db.selectFrom('price_series').selectAll().orderBy('symbol').orderBy('source').execute();
}

export interface StoredBar {
  symbol: string;
  source: string;
  date: string;
  close: number | null;
  adj_close: number;
}

/** The closes of every series of the given symbols, in date order per series. */
export async function barsOfSymbols(db: Kysely<Database>, symbols: readonly string[]): Promise<StoredBar[]> {
  const rows: StoredBar[] = [];
  // One symbol per query: each reads its primary-key range in order, with nothing to sort.
  for (const symbol of symbols) {
    append(
      rows,
      await db
        .selectFrom('price_bars')
        .select(['symbol', 'source', 'date', 'close', 'adj_close'])
        .where('symbol', '=', symbol)
        .orderBy('source')
        .orderBy('date')
        .execute(),
    );
  }
  return rows;
}

export interface FlagRow {
  symbol: string;
  source: string;
  date: string;
  kind: string;
  detail: string;
}

/** Replaces the flags of the given symbols; returns the flags that appeared and those that went away. */
export async function replaceFlags(
  db: Kysely<Database>,
  symbols: readonly string[],
  flags: readonly FlagRow[],
  now: string,
): Promise<{ added: FlagRow[]; removed: FlagRow[] }> {
  const before = await flagsOfSymbols(db, symbols);
  const key = (flag: Pick<FlagRow, 'symbol' | 'source' | 'date' | 'kind'>) =>
    `${flag.symbol}|${flag.source}|${flag.date}|${flag.kind}`;
  const known = new Set(before.map(key));
  for (const batch of chunk([...symbols], 500)) {
    if (batch.length > 0) await db.deleteFrom('price_flags').where('symbol', 'in', batch).execute();
  }
  for (const batch of chunk(flags, rowsPerInsert(6))) {
    await db
      .insertInto('price_flags')
      .values(batch.map((flag) => ({ ...flag, detected_at: now })))
      .execute();
  }
  const after = new Set(flags.map(key));
  return {
    added: flags.filter((flag) => !known.has(key(flag))),
    removed: before.filter((flag) => !after.has(key(flag))),
  };
}

export async function flagsOfSymbols(db: Kysely<Database>, symbols: readonly string[]): Promise<FlagRow[]> {
  return readInBatches(symbols, (batch) =>
    db
      .selectFrom('price_flags')
      .select(['symbol', 'source', 'date', 'kind', 'detail'])
      .where('symbol', 'in', batch)
      .execute(),
  );
}

export async function actionsOfSymbols(
  db: Kysely<Database>,
  symbols: readonly string[],
): Promise<Array<ActionRow & { symbol: string; source: string }>> {
  return readInBatches(symbols, (batch) =>
    db
      .selectFrom('corporate_actions')
      .select(['symbol', 'source', 'date', 'kind', 'value'])
      .where('symbol', 'in', batch)
      .execute(),
  );
}

export async function flagCounts(db: Kysely<Database>): Promise<Array<{ kind: string; n: number }>> {
  const rows = await db
    .selectFrom('price_flags')
    .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
    .groupBy('kind')
    .execute();
  return rows.map((row) => ({ kind: row.kind, n: Number(row.n) }));
}

export interface FetchRow {
  symbol: string;
  fetched_at: string;
  status: string;
  bars: number;
  detail: string | null;
}

export async function recordFetch(db: Kysely<Database>, fetch: FetchRow): Promise<void> {
  await db
    .insertInto('price_fetches')
    .values(fetch)
    .onConflict((oc) =>
      oc.column('symbol').doUpdateSet({
        fetched_at: fetch.fetched_at,
        status: fetch.status,
        bars: fetch.bars,
        detail: fetch.detail,
      }),
    )
    .execute();
}

export async function fetchesOf(db: Kysely<Database>, symbols: readonly string[]): Promise<FetchRow[]> {
  return readInBatches(symbols, (batch) =>
    db.selectFrom('price_fetches').selectAll().where('symbol', 'in', batch).execute(),
  );
}

/** Touches series metadata after flags changed, so that incremental enrichment revisits their trades. */
export async function markSeriesChanged(
  db: Kysely<Database>,
  keys: ReadonlyArray<{ symbol: string; source: string }>,
  now: string,
): Promise<void> {
  await updateRowsByKey(
    db,
    'price_series',
    { column: 'symbol', type: 'text' },
    { updated_at: 'text', history_changed_at: 'text' },
    [...new Set(keys.map((key) => key.symbol))].map((symbol) => ({
      symbol,
      updated_at: now,
      history_changed_at: now,
    })),
  );
}

/** A series' close basis as its rank in CLOSE_BASIS_ORDER (an unknown basis last). */
function basisRank(basis: Expression<string>) {
  const ranks = Object.entries(CLOSE_BASIS_ORDER);
  const whens = ranks.map(([name, rank]) => sql`when ${sql.lit(name)} then ${sql.lit(rank)}`);
  return sql<number>`case ${basis} ${sql.join(whens, sql` `)} else ${sql.lit(ranks.length)} end`;
}

/**
 * The latest close of each of `tickers` that has prices: the bar of the newest date among the
 * ticker's series (each series' last date is kept in price_series, so this reads one bar per
 * series), a stated close before a source's adjusted one, then the series in dailyCloses' order.
 * One query for the whole list.
 */
export async function latestCloses(
  db: Kysely<Database>,
  tickers: readonly string[],
): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  const symbols = [...new Set(tickers)];
  if (symbols.length === 0) return result;
  const bars = await db
    .selectFrom('price_series as s')
    .innerJoin('price_bars as b', (join) =>
      join
        .onRef('b.symbol', '=', 's.symbol')
        .onRef('b.source', '=', 's.source')
        .onRef('b.date', '=', 's.last_date'),
    )
    .select(['b.symbol', 'b.close', 'b.adj_close'])
    .where('s.symbol', 'in', symbols)
    .orderBy('b.symbol')
    .orderBy('b.date', 'desc')
    .orderBy(sql`case when b.close is null then 1 else 0 end`)
    .orderBy((eb) => basisRank(eb.ref('s.close_basis')))
    .orderBy('s.priority')
    .orderBy('s.source')
    .execute();
  for (const bar of bars) {
    if (!result.has(bar.symbol)) result.set(bar.symbol, bar.close ?? bar.adj_close);
  }
  return result;
}

/**
 * One symbol's daily closes between two dates (inclusive), from a single series so that a chart
 * has no jumps between sources: the least adjusted close first (the basis `price_on_trade_date`
 * uses), then the higher priority; `adj_close` where a source has no close. Null when the symbol
 * has no stored series at all; an empty list when it has some, but no bar in the range.
 */
export async function dailyCloses(
  db: Kysely<Database>,
  symbol: string,
  from: string,
  to: string,
): Promise<Array<{ date: string; close: number }> | null> {
  const series = await db
    .selectFrom('price_series')
    .select(['source', 'first_date', 'last_date'])
    .where('symbol', '=', symbol)
    .orderBy((eb) => basisRank(eb.ref('close_basis')))
    .orderBy('priority')
    .orderBy('source')
    .execute();
  if (series.length === 0) return null;
  const covering = series.find((meta) => meta.first_date <= to && meta.last_date >= from);
  if (!covering) return [];
  const bars = await db
    .selectFrom('price_bars')
    .select(['date', 'close', 'adj_close'])
    .where('symbol', '=', symbol)
    .where('source', '=', covering.source)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('date')
    .execute();
  return bars.map((bar) => ({ date: bar.date, close: bar.close ?? bar.adj_close }));
}

/** One stored bar of one series, or undefined. */
export async function barOn(
  db: Kysely<Database>,
  symbol: string,
  source: string,
  date: string,
): Promise<{ date: string; close: number | null; adj_close: number } | undefined> {
  return db
    .selectFrom('price_bars')
    .select(['date', 'close', 'adj_close'])
    .where('symbol', '=', symbol)
    .where('source', '=', source)
    .where('date', '=', date)
    .executeTakeFirst();
}
