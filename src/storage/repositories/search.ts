// Candidate rows for global search; ranking happens in search/.
import { type Kysely, sql } from 'kysely';
import {
  containsInsensitive,
  containsPattern,
  prefixPattern,
  startsWithInsensitive,
  type TrigramIndex,
  trigramCandidates,
} from '../dialect.js';
import type { Database } from '../schema.js';

const CANDIDATES = 200;

/**
 * `key in (...)`: the keys the trigram index names for any of the column matches (on SQLite, see
 * trigramCandidates), or true when it cannot answer one of them (the query then scans).
 */
function narrowed(
  db: Kysely<Database>,
  key: string,
  index: TrigramIndex,
  matches: readonly { column: string; pattern: string }[],
) {
  const sets = matches.map(({ column, pattern }) => trigramCandidates(db, index, column, pattern));
  if (sets.some((set) => set === undefined)) return sql<boolean>`1 = 1`;
  return sql<boolean>`${sql.ref(key)} in (${sql.join(sets, sql` union `)})`;
}

// The members' trade counts come from politician_trade_totals (kept by triggers, migration
// 0021-politician-stats), the tickers' from ticker_trade_descriptions (migration
// 0027-endpoint-indexes): no aggregate over the trades per call (issue 17).
export async function politicianCandidates(db: Kysely<Database>, needle: string) {
  return db
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
      narrowed(db, 'p.id', 'politicians_trigram', [
        { column: 'name', pattern: containsPattern(needle) },
        { column: 'slug', pattern: containsPattern(needle.replace(/\s+/g, '-')) },
      ]),
    )
    .where((eb) =>
      eb.or([
        containsInsensitive('p.name', needle, db),
        containsInsensitive('p.slug', needle.replace(/\s+/g, '-'), db),
      ]),
    )
    .orderBy(sql`coalesce(s.trade_count, 0)`, 'desc')
    .orderBy('p.id')
    .limit(CANDIDATES)
    .execute();
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

export async function tickerCandidates(db: Kysely<Database>, needle: string) {
  const traded = await tickerGroups(db)
    .where(
      narrowed(db, 'id', 'ticker_descriptions_trigram', [
        { column: 'ticker', pattern: prefixPattern(needle) },
      ]),
    )
    .where(startsWithInsensitive('ticker', needle, db))
    .execute();
  const companies = await db
    .selectFrom('companies')
    .select(['ticker', 'name'])
    .where(
      narrowed(db, 'ticker', 'company_names_trigram', [
        { column: 'ticker', pattern: prefixPattern(needle) },
        { column: 'name', pattern: containsPattern(needle) },
      ]),
    )
    .where((eb) =>
      eb.or([startsWithInsensitive('ticker', needle, db), containsInsensitive('name', needle, db)]),
    )
    .limit(CANDIDATES)
    .execute();
  const byDescription = await tickerGroups(db)
    .where('described', '=', 1)
    .where(
      narrowed(db, 'id', 'ticker_descriptions_trigram', [
        { column: 'asset_description', pattern: containsPattern(needle) },
      ]),
    )
    .where(containsInsensitive('asset_description', needle, db))
    .execute();
  return { traded, companies, byDescription };
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
