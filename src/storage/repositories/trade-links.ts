// The precomputed conflict links of members' trades (migration 0013-analytics-links): written with
// the member statistics (src/analytics/refresh-members.ts), read by GET /conflict/{politician_id}.
import type { Kysely } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import { compiledOnce } from '../compiled-queries.js';
import { pageLimit } from '../list-order.js';
import type { MemberLinksTable, TradeLinksTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import { preparedQuery, syncSqliteOf } from '../sqlite-hot-path.js';

/** Replaces the links of the given members (call inside the refresh's transaction). */
export async function saveMemberLinks(
  db: Kysely<Database>,
  politicianIds: readonly number[],
  members: readonly MemberLinksTable[],
  links: readonly TradeLinksTable[],
): Promise<void> {
  for (const batch of chunk([...politicianIds], 500)) {
    if (batch.length === 0) continue;
    await db.deleteFrom('trade_links').where('politician_id', 'in', batch).execute();
    await db.deleteFrom('member_links').where('politician_id', 'in', batch).execute();
  }
  for (const batch of chunk(members, rowsPerInsert(3))) {
    await db
      .insertInto('member_links')
      .values([...batch])
      .execute();
  }
  for (const batch of chunk(links, rowsPerInsert(7))) {
    await db
      .insertInto('trade_links')
      .values([...batch])
      .execute();
  }
}

/** When the member's links were computed and where their seat history starts; undefined: not yet. */
export async function memberLinksState(
  db: Kysely<Database>,
  politicianId: number,
): Promise<MemberLinksTable | undefined> {
  return db
    .selectFrom('member_links')
    .selectAll()
    .where('politician_id', '=', politicianId)
    .executeTakeFirst();
}

/** The committees column of every linked trade of the member (for the per-committee counts). */
export async function linkedTradeCommittees(db: Kysely<Database>, politicianId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('trade_links')
    .select('committees')
    .where('politician_id', '=', politicianId)
    .execute();
  return rows.map((row) => row.committees);
}

/** A page of the member's linked trades, newest transaction first (ties: higher id first, as /trades). */
export async function linkedTradesPage(
  db: Kysely<Database>,
  politicianId: number,
  page: { limit: number; offset: number },
): Promise<TradeLinksTable[]> {
  return db
    .selectFrom('trade_links')
    .selectAll()
    .where('politician_id', '=', politicianId)
    .orderBy('transaction_date', 'desc')
    .orderBy('trade_id', 'desc')
    .limit(pageLimit(page.limit))
    .offset(page.offset)
    .execute();
}

/**
 * The member's countable trades (countableTrade: the set the links and conflict_score are computed
 * over): all of them, those whose sector or industry is known, and those made before the first day
 * of the member's seat history (all of them when there is none). The first two are kept by
 * triggers (politician_trade_totals, trade_sector_counts); the third is the total less the trades
 * from that day on, summed from trade_date_counts (kept by triggers too) over the days the member
 * traded since, so no count here reads one row per trade.
 */
export async function memberTradeCounts(
  db: Kysely<Database>,
  politicianId: number,
  seatsKnownFrom: string | null,
): Promise<{ total: number; withSector: number; outsideSeatHistory: number }> {
  // Built and compiled once (prepared once on SQLite): building it per call cost more than running it.
  const build = (param: (name: 'member' | 'from') => never) =>
    db.selectNoFrom((eb) => [
      eb
        .selectFrom('politician_trade_totals')
        .select('trade_count')
        .where('politician_id', '=', param('member'))
        .as('total'),
      eb
        .selectFrom('trade_sector_counts')
        .select('trade_count')
        .where('politician_id', '=', param('member'))
        .as('with_sector'),
      seatsKnownFrom === null
        ? eb.lit(0).as('inside')
        : eb
            .selectFrom('trade_date_counts')
            .select((inner) => inner.fn.sum<number | string | null>('trade_count').as('n'))
            .where('politician_id', '=', param('member'))
            .where('transaction_date', '>=', param('from'))
            .as('inside'),
    ]);
  type Row = {
    total: number | string | null;
    with_sector: number | string | null;
    inside: number | string | null;
  };
  const name = seatsKnownFrom === null ? 'member.tradeCounts' : 'member.tradeCounts.since';
  const values = { member: politicianId, from: seatsKnownFrom };
  const sqlite = syncSqliteOf(db);
  const row = sqlite
    ? (preparedQuery(sqlite, name, build).get(values) as Row | undefined)
    : (await compiledOnce<'member' | 'from', Row>(db, name, build).execute(values))[0];
  const total = Number(row?.total ?? 0);
  return {
    total,
    withSector: Number(row?.with_sector ?? 0),
    outsideSeatHistory: total - Number(row?.inside ?? 0),
  };
}

/**
 * Members whose stored links may be out of date: members with trades but no computed links (a
 * database migrated since), and members holding a trade in a ticker whose lobbying filing or
 * contract award was written after their links were computed, or whose committee seats were, or
 * who received a PAC contribution written after them.
 */
export async function membersWithStaleLinks(db: Kysely<Database>): Promise<number[]> {
  const stale = new Set<number>();
  const missing = await db
    .selectFrom('trades as t')
    .leftJoin('member_links as m', 'm.politician_id', 't.politician_id')
    .select('t.politician_id')
    .distinct()
    .where('m.politician_id', 'is', null)
    .where('t.superseded_by', 'is', null)
    .execute();
  for (const row of missing) stale.add(row.politician_id);

  const oldest = await db
    .selectFrom('member_links')
    .select((eb) => eb.fn.min<string | null>('computed_at').as('at'))
    .executeTakeFirst();
  const since = oldest?.at;
  if (!since) return [...stale].sort((a, b) => a - b);

  const changedTickers = new Map<string, string>();
  for (const table of ['lobbying_filings', 'contract_awards'] as const) {
    const rows = await db
      .selectFrom(table)
      .select((eb) => ['ticker', eb.fn.max<string>('updated_at').as('at')])
      .where('ticker', 'is not', null)
      .where('updated_at', '>', since)
      .groupBy('ticker')
      .execute();
    for (const row of rows) {
      if (row.ticker && row.at > (changedTickers.get(row.ticker) ?? ''))
        changedTickers.set(row.ticker, row.at);
    }
  }
  for (const batch of chunk([...changedTickers.keys()], 500)) {
    const rows = await db
      .selectFrom('trades as t')
      .innerJoin('member_links as m', 'm.politician_id', 't.politician_id')
      .select(['t.politician_id', 't.ticker', 'm.computed_at'])
      .distinct()
      .where('t.ticker', 'in', batch)
      .where('t.superseded_by', 'is', null)
      .execute();
    for (const row of rows) {
      if (row.computed_at < (changedTickers.get(row.ticker) ?? '')) stale.add(row.politician_id);
    }
  }

  const seats = await db
    .selectFrom('committee_seats as s')
    .innerJoin('politicians as p', 'p.bioguide_id', 's.bioguide_id')
    .innerJoin('member_links as m', 'm.politician_id', 'p.id')
    .select('p.id')
    .distinct()
    .whereRef('s.updated_at', '>', 'm.computed_at')
    .execute();
  for (const row of seats) stale.add(row.id);

  // A PAC contribution to the member's campaign written after the member's links (its campaign
  // links and conflict_score). Rows stored before migration 0022 have no write time (enrich --all).
  const gifts = await db
    .selectFrom('fec_committee_contributions as x')
    .innerJoin('politician_fec_ids as f', 'f.fec_id', 'x.candidate_id')
    .innerJoin('politicians as p', 'p.bioguide_id', 'f.bioguide_id')
    .innerJoin('member_links as m', 'm.politician_id', 'p.id')
    .select('p.id')
    .distinct()
    .where('x.updated_at', '>', since)
    .whereRef('x.updated_at', '>', 'm.computed_at')
    .execute();
  for (const row of gifts) stale.add(row.id);
  return [...stale].sort((a, b) => a - b);
}
