// Candidate rows for global search; ranking happens in search/.
import { type Kysely, sql } from 'kysely';
import { containsInsensitive, startsWithInsensitive } from '../dialect.js';
import type { Database } from '../schema.js';

const CANDIDATES = 200;

export async function politicianCandidates(db: Kysely<Database>, needle: string) {
  return db
    .selectFrom('politicians as p')
    .leftJoin(
      db
        .selectFrom('trades')
        .select((eb) => ['politician_id', eb.fn.countAll<number>().as('n')])
        .where('superseded_by', 'is', null)
        .groupBy('politician_id')
        .as('s'),
      's.politician_id',
      'p.id',
    )
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
      sql<number>`coalesce(s.n, 0)`.as('trade_count'),
    ])
    .where((eb) =>
      eb.or([
        containsInsensitive('p.name', needle),
        containsInsensitive('p.slug', needle.replace(/\s+/g, '-')),
      ]),
    )
    .orderBy(sql`coalesce(s.n, 0)`, 'desc')
    .orderBy('p.id')
    .limit(CANDIDATES)
    .execute();
}

export async function tickerCandidates(db: Kysely<Database>, needle: string) {
  const traded = await db
    .selectFrom('trades')
    .select((eb) => [
      'ticker',
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('asset_description').as('description'),
    ])
    .where('superseded_by', 'is', null)
    .where('ticker', '<>', 'N/A')
    .where(startsWithInsensitive('ticker', needle))
    .groupBy('ticker')
    .orderBy(sql`count(*)`, 'desc')
    .limit(CANDIDATES)
    .execute();
  const companies = await db
    .selectFrom('companies')
    .select(['ticker', 'name'])
    .where((eb) => eb.or([startsWithInsensitive('ticker', needle), containsInsensitive('name', needle)]))
    .limit(CANDIDATES)
    .execute();
  const byDescription = await db
    .selectFrom('trades')
    .select((eb) => [
      'ticker',
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('asset_description').as('description'),
    ])
    .where('superseded_by', 'is', null)
    .where('ticker', '<>', 'N/A')
    .where(containsInsensitive('asset_description', needle))
    .groupBy('ticker')
    .orderBy(sql`count(*)`, 'desc')
    .limit(CANDIDATES)
    .execute();
  return { traded, companies, byDescription };
}

export async function tradeCountsFor(
  db: Kysely<Database>,
  tickers: readonly string[],
): Promise<Map<string, number>> {
  if (tickers.length === 0) return new Map();
  const rows = await db
    .selectFrom('trades')
    .select((eb) => ['ticker', eb.fn.countAll<number>().as('n')])
    .where('superseded_by', 'is', null)
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
      const options = [containsInsensitive('title', needle), containsInsensitive('short_title', needle)];
      if (compactId) options.push(startsWithInsensitive('id', compactId));
      return eb.or(options);
    })
    .orderBy('congress', 'desc')
    .orderBy('id')
    .limit(CANDIDATES)
    .execute();
}
