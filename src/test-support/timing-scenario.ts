// A CONSTRUCTED timing scenario on top of the real-data fixture (not real data): on the fixture no
// trade falls shortly before a committee action or roll call on a bill touching the company, so the
// timing answers could only be checked as "none". Here the fixture's real Senate roll calls on two
// bills are given the bills they name (their rows are not in the fixture's files: written here with
// their public titles and CRS policy areas), and copies of real trades of senators who voted on them
// are moved to a few days before the vote. The copies carry the origin CONSTRUCTED_ORIGIN; the
// members, votes and positions are the fixture's own. Used by the assistant bench's timing group.
import type { Kysely } from 'kysely';
import { refreshStoredAnalytics } from '../analytics/stored-analytics.js';
import { addDays } from '../domain/dates.js';
import { MARKET_FIELDS } from '../domain/market-fields.js';
import type { Database } from '../storage/schema.js';
import { FIXTURE_NOW } from './real-data.js';

export const CONSTRUCTED_ORIGIN = 'constructed-timing-scenario';

/** The bills the fixture's roll calls name, the sector of the trades moved before them. */
const BILLS = [
  {
    id: 's1582-119',
    number: 1582,
    title:
      'Guiding and Establishing National Innovation for U.S. Stablecoins Act (GENIUS Act): a bill to provide for the regulation of payment stablecoins',
    short_title: 'GENIUS Act',
    policy_area: 'Finance and Financial Sector',
    // The passage vote, and the sector of the trades copied before it.
    vote: 's119-318',
    sector: 'Financials',
  },
  {
    id: 's2296-119',
    number: 2296,
    title: 'National Defense Authorization Act for Fiscal Year 2026',
    short_title: 'NDAA FY2026',
    policy_area: 'Armed Forces and National Security',
    vote: 's119-570',
    sector: 'Industrials',
  },
] as const;

// The copies are not priced: the market fields and the time they were computed are cleared.
const UNPRICED = [...MARKET_FIELDS, 'enriched_at'] as const;

/** Copies per bill, and how many days before the vote each copy is made. */
const COPIES = 3;
const DAYS_BEFORE = 5;

/** Adds the scenario to a database holding the real-data fixture; the ids of the copies. */
export async function loadTimingScenario(db: Kysely<Database>): Promise<number[]> {
  const stamp = FIXTURE_NOW.toISOString();
  const ids: number[] = [];
  for (const bill of BILLS) {
    await db
      .insertInto('bills')
      .values({
        id: bill.id,
        congress: 119,
        bill_type: 's',
        number: bill.number,
        title: bill.title,
        short_title: bill.short_title,
        policy_area: bill.policy_area,
        updated_at: stamp,
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    const vote = await db
      .selectFrom('votes')
      .select('vote_date')
      .where('id', '=', bill.vote)
      .executeTakeFirstOrThrow();
    const day = addDays(String(vote.vote_date).slice(0, 10), -DAYS_BEFORE);
    // The voters' newest real trade of the sector each (yea or nay), first by name: no one chosen by hand.
    const originals = await db
      .selectFrom('vote_positions as vp')
      .innerJoin('politicians as p', 'p.bioguide_id', 'vp.bioguide_id')
      .innerJoin('trades as t', 't.politician_id', 'p.id')
      .selectAll('t')
      .where('vp.vote_id', '=', bill.vote)
      .where('vp.position', 'in', ['yea', 'nay'])
      .where('t.sector', '=', bill.sector)
      .where('t.superseded_by', 'is', null)
      .where('t.ticker', 'is not', null)
      .orderBy('p.name')
      .orderBy('t.transaction_date', 'desc')
      .orderBy('t.id')
      .execute();
    const seen = new Set<number>();
    for (const trade of originals) {
      if (seen.has(trade.politician_id) || seen.size === COPIES) continue;
      seen.add(trade.politician_id);
      const { id: _id, ...copy } = trade;
      const inserted = await db
        .insertInto('trades')
        .values({
          ...copy,
          origin: CONSTRUCTED_ORIGIN,
          source_key: `${trade.source_key ?? trade.id}:${CONSTRUCTED_ORIGIN}`,
          transaction_date: day,
          disclosure_date: addDays(day, 20),
          days_to_disclose: 20,
          // The original's prices and returns are of its own dates: the copy has none.
          ...Object.fromEntries(UNPRICED.map((column) => [column, null])),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(inserted.id));
    }
  }
  await refreshStoredAnalytics(db, { now: FIXTURE_NOW, force: true });
  return ids;
}
