// What semantic search indexes, read in a few plain queries.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';

/** Changes whenever indexed data changes: the cache key of the search index. */
export async function corpusVersion(db: Kysely<Database>): Promise<string> {
  const trades = await db
    .selectFrom('trades')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('id').as('max'),
      eb.fn.max('updated_at').as('updated'),
    ])
    .executeTakeFirstOrThrow();
  const politicians = await db
    .selectFrom('politicians')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const bills = await db
    .selectFrom('bills')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const companies = await db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return [trades.n, trades.max, trades.updated, politicians.n, bills.n, companies.n].map(String).join('|');
}

export async function searchablePoliticians(db: Kysely<Database>) {
  const politicians = await db
    .selectFrom('politicians as p')
    .select(['p.id', 'p.name', 'p.slug', 'p.party', 'p.state', 'p.chamber', 'p.title', 'p.agency'])
    .where((eb) =>
      eb.or([
        eb('p.in_office', '=', 1),
        eb.exists(eb.selectFrom('trades as t').select('t.id').whereRef('t.politician_id', '=', 'p.id')),
      ]),
    )
    .execute();
  const committees = await db
    .selectFrom('committee_memberships as m')
    .innerJoin('committees as c', 'c.id', 'm.committee_id')
    .select(['m.politician_id', 'c.name'])
    .execute();
  return { politicians, committees };
}

export async function searchableTickers(db: Kysely<Database>) {
  return db
    .selectFrom('trades as t')
    .leftJoin('companies as c', 'c.ticker', 't.ticker')
    .select((eb) => [
      't.ticker',
      eb.fn.countAll<number>().as('trade_count'),
      eb.fn.max('t.asset_description').as('description'),
      eb.fn.max('c.name').as('company'),
      eb.fn.max(sql<string>`coalesce(c.sector, t.sector)`).as('sector'),
      eb.fn.max(sql<string>`coalesce(c.industry, t.industry)`).as('industry'),
    ])
    .where('t.ticker', '<>', 'N/A')
    .where('t.superseded_by', 'is', null)
    .groupBy('t.ticker')
    .execute();
}

export async function searchableTrades(db: Kysely<Database>) {
  return db
    .selectFrom('trades as t')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .select([
      't.id',
      'p.name as politician_name',
      'p.party',
      't.source',
      't.ticker',
      't.asset_description',
      't.asset_type',
      't.trade_type',
      't.owner',
      't.comment',
      't.sector',
      't.option_type',
      't.amount_range',
      't.transaction_date',
    ])
    .where('t.superseded_by', 'is', null)
    .execute();
}

export async function searchableBills(db: Kysely<Database>) {
  return db.selectFrom('bills').select(['id', 'title', 'short_title', 'policy_area', 'congress']).execute();
}
