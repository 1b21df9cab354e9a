// Candidate rows for global search; ranking happens in search/.
import { type Kysely, sql } from 'kysely';
import { compiledOnce } from '../compiled-queries.js';
import {
  containsInsensitive,
  containsPattern,
  likeInsensitive,
  prefixPattern,
  startsWithInsensitive,
  type TrigramIndex,
  trigramCandidates,
  trigramUsable,
} from '../dialect.js';
import type { Database } from '../schema.js';
import { companySymbolOfTrade, filedSymbolsOf } from './company-symbols.js';

const CANDIDATES = 200;

/**
 * `key in (...)`: the keys the trigram index names for any of the column matches (on SQLite, see
 * trigramCandidates), or true when it cannot answer one of them (`usable` false: the query then
 * scans). The patterns may be compiledOnce placeholders: `usable` was decided on the real ones.
 */
function narrowed(
  db: Kysely<Database>,
  usable: boolean,
  key: string,
  index: TrigramIndex,
  matches: readonly { column: string; pattern: string }[],
) {
  const sets = matches.map(({ column, pattern }) => trigramCandidates(db, index, column, pattern));
  if (!usable || sets.some((set) => set === undefined)) return sql<boolean>`1 = 1`;
  return sql<boolean>`${sql.ref(key)} in (${sql.join(sets, sql` union `)})`;
}

/** Whether the trigram index answers every one of these patterns (the shape of the query). */
function allUsable(db: Kysely<Database>, patterns: readonly string[]): boolean {
  return patterns.every((pattern) => trigramUsable(db, pattern));
}

// Each query below is built and compiled once per shape (whether the trigram indexes answer its
// patterns, how many tickers it counts) and run with its LIKE patterns as values: building the
// five queries through Kysely cost more than running them (BENCHMARKS.md).

// The members' trade counts come from politician_trade_totals (kept by triggers, migration
// 0021-politician-stats), the tickers' from ticker_trade_descriptions (migration
// 0027-endpoint-indexes): no aggregate over the trades per call.
export async function politicianCandidates(db: Kysely<Database>, needle: string) {
  const values = { name: containsPattern(needle), slug: containsPattern(needle.replace(/\s+/g, '-')) };
  const usable = allUsable(db, [values.name, values.slug]);
  type Row = {
    id: number;
    name: string;
    slug: string;
    party: string | null;
    state: string | null;
    chamber: string;
    last_name: string | null;
    nickname: string | null;
    first_name: string | null;
    trade_count: number;
  };
  return compiledOnce<keyof typeof values, Row>(db, `search.politicians:${usable}`, (param) =>
    db
      .selectFrom('politicians as p')
      .leftJoin('politician_trade_totals as s', 's.politician_id', 'p.id')
      .select([
        'p.id',
        'p.name',
        'p.slug',
        'p.party',
        'p.state',
        'p.chamber',
        'p.last_name',
        'p.nickname',
        'p.first_name',
        sql<number>`coalesce(s.trade_count, 0)`.as('trade_count'),
      ])
      .where(
        narrowed(db, usable, 'p.id', 'politicians_trigram', [
          { column: 'name', pattern: param('name') },
          { column: 'slug', pattern: param('slug') },
        ]),
      )
      .where((eb) =>
        eb.or([likeInsensitive('p.name', param('name'), db), likeInsensitive('p.slug', param('slug'), db)]),
      )
      .orderBy(sql`coalesce(s.trade_count, 0)`, 'desc')
      .orderBy('p.id')
      .limit(CANDIDATES),
  ).execute(values);
}

/**
 * Tickers with current trades whose ticker or asset description matches, each with the number of
 * those trades and the greatest of their descriptions (as grouping the trades themselves answers).
 */
function tickerGroups(db: Kysely<Database>) {
  return db
    .selectFrom('ticker_trade_descriptions')
    .select([
      'ticker',
      sql<number>`sum(trade_count)`.as('n'),
      sql<string | null>`max(case when described = 1 then asset_description end)`.as('description'),
    ])
    .where('ticker', '<>', 'N/A')
    .groupBy('ticker')
    .orderBy(sql`sum(trade_count)`, 'desc')
    .orderBy('ticker')
    .limit(CANDIDATES);
}

type TickerGroup = { ticker: string; n: number; description: string | null };

export async function tickerCandidates(db: Kysely<Database>, needle: string) {
  const prefix = prefixPattern(needle);
  const contains = containsPattern(needle);
  const prefixUsable = allUsable(db, [prefix]);
  const bothUsable = allUsable(db, [prefix, contains]);
  const containsUsable = allUsable(db, [contains]);
  const traded = await compiledOnce<'prefix', TickerGroup>(db, `search.traded:${prefixUsable}`, (param) =>
    tickerGroups(db)
      .where(
        narrowed(db, prefixUsable, 'id', 'ticker_descriptions_trigram', [
          { column: 'ticker', pattern: param('prefix') },
        ]),
      )
      .where(likeInsensitive('ticker', param('prefix'), db)),
  ).execute({ prefix });
  const companies = await compiledOnce<'prefix' | 'contains', { ticker: string; name: string | null }>(
    db,
    `search.companies:${bothUsable}`,
    (param) =>
      db
        .selectFrom('companies')
        .select(['ticker', 'name'])
        .where(
          narrowed(db, bothUsable, 'ticker', 'company_names_trigram', [
            { column: 'ticker', pattern: param('prefix') },
            { column: 'name', pattern: param('contains') },
          ]),
        )
        .where((eb) =>
          eb.or([
            likeInsensitive('ticker', param('prefix'), db),
            likeInsensitive('name', param('contains'), db),
          ]),
        )
        .limit(CANDIDATES),
  ).execute({ prefix, contains });
  const byDescription = await compiledOnce<'contains', TickerGroup>(
    db,
    `search.described:${containsUsable}`,
    (param) =>
      tickerGroups(db)
        .where('described', '=', 1)
        .where(
          narrowed(db, containsUsable, 'id', 'ticker_descriptions_trigram', [
            { column: 'asset_description', pattern: param('contains') },
          ]),
        )
        .where(likeInsensitive('asset_description', param('contains'), db)),
  ).execute({ contains });
  return { traded, companies, byDescription };
}

/** Which of these tickers the company directory lists. */
export async function listedTickers(db: Kysely<Database>, tickers: readonly string[]): Promise<Set<string>> {
  if (tickers.length === 0) return new Set();
  const rows = await db
    .selectFrom('companies')
    .select('ticker')
    .where('ticker', 'in', [...tickers])
    .execute();
  return new Set(rows.map((row) => row.ticker));
}

export async function tradeCountsFor(
  db: Kysely<Database>,
  tickers: readonly string[],
): Promise<Map<string, number>> {
  if (tickers.length === 0) return new Map();
  const rows = await db
    .selectFrom('ticker_trade_descriptions')
    .select(['ticker', sql<number>`sum(trade_count)`.as('n')])
    .where('ticker', 'in', [...tickers])
    .groupBy('ticker')
    .execute();
  return new Map(rows.map((row) => [row.ticker, Number(row.n)]));
}

export async function billCandidates(db: Kysely<Database>, needle: string, compactId: string | null) {
  return db
    .selectFrom('bills')
    .select(['id', 'congress', 'bill_type', 'number', 'title', 'short_title', 'latest_action_date'])
    .where((eb) => {
      const options = [
        containsInsensitive('title', needle, db),
        containsInsensitive('short_title', needle, db),
      ];
      if (compactId) options.push(startsWithInsensitive('id', compactId, db));
      return eb.or(options);
    })
    .orderBy('congress', 'desc')
    .orderBy('id')
    .limit(CANDIDATES)
    .execute();
}

/**
 * How many current trades each of these companies has, by the symbol it trades under now: a renamed
 * company's trades filed under a former symbol count as its own (FB's as META's), a reused symbol's
 * as the company it meant on the trade's date (company-symbols.ts).
 */
export async function companyTradeCounts(
  db: Kysely<Database>,
  companies: readonly string[],
): Promise<Map<string, number>> {
  if (companies.length === 0) return new Map();
  const company = companySymbolOfTrade('ticker', 'transaction_date');
  const rows = await db
    .selectFrom('trades')
    .select([company.as('company'), sql<number>`count(*)`.as('n')])
    .where('ticker', 'in', filedSymbolsOf(companies))
    .where('superseded_by', 'is', null)
    .where(company, 'in', [...companies])
    .groupBy(company)
    .execute();
  return new Map(rows.map((row) => [row.company, Number(row.n)]));
}

/** The company directory's names of these tickers. */
export async function companyNamesOf(
  db: Kysely<Database>,
  tickers: readonly string[],
): Promise<Map<string, string | null>> {
  if (tickers.length === 0) return new Map();
  const rows = await db
    .selectFrom('companies')
    .select(['ticker', 'name'])
    .where('ticker', 'in', [...tickers])
    .execute();
  return new Map(rows.map((row) => [row.ticker, row.name]));
}
