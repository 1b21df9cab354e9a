// The identity and data-quality gate on the real trade sets (the test fixture: every Stock Watcher
// set, the FEC files, lobbying and contracts, as the README's all-data quick start loads them).
// Runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_MIN_TRADES } from '../../domain/sorts.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { FIXTURE_NOW } from '../../test-support/real-data.js';
import {
  candidateIdsOf,
  committeeIdsOf,
  pacContributionsByCompany,
  topEmployers,
} from './campaign-finance.js';
import { listProfiles } from './politicians-read.js';
import { linkIdentity, qualityAudit, refreshTradeQuality } from './quality.js';
import { summaryCounts } from './stats.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)('the quality gate on the real trade sets', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  const personOf = (bioguide: string) =>
    store.db
      .selectFrom('politicians')
      .select(['id', 'name'])
      .where('bioguide_id', '=', bioguide)
      .executeTakeFirstOrThrow();

  it("puts McConnell's 2020-12-03 WFC purchase on Mitch McConnell, not on the bioguide id the set gave (M000357)", async () => {
    const trades = await store.db
      .selectFrom('trades as t')
      .innerJoin('politicians as p', 'p.id', 't.politician_id')
      .select(['p.bioguide_id', 'p.name', 't.identity_match'])
      .where('t.ticker', '=', 'WFC')
      .where('t.transaction_date', '=', '2020-12-03')
      .where('p.last_name', '=', 'McConnell')
      .execute();
    expect(trades.length).toBeGreaterThan(0);
    for (const trade of trades)
      expect(trade).toMatchObject({ bioguide_id: 'M000355', identity_match: 'name+term' });
    const william = await personOf('M000357');
    const onWilliam = await store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('politician_id', '=', william.id)
      .executeTakeFirstOrThrow();
    expect(Number(onWilliam.n)).toBe(0);
  });

  it('stores no trade on a person born after it or dead long before it', async () => {
    const row = await store.db
      .selectFrom('trades as t')
      .innerJoin('politicians as p', 'p.id', 't.politician_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.or([eb('p.birthday', '<', '1915-01-01'), eb('p.birthday', '>', eb.ref('t.transaction_date'))]),
      )
      .executeTakeFirstOrThrow();
    expect(Number(row.n)).toBe(0);
  });

  it("keeps an exchange's two symbols apart and merges Perdue's eFD rows into the aggregate's", async () => {
    const joined = await store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ticker', 'like', '%  %')
      .executeTakeFirstOrThrow();
    expect(Number(joined.n)).toBe(0);
    // Perdue's report holds two 21st Century Fox -> Disney exchanges on 2019-03-20 (class A and
    // class B): two trades, each from both Senate sources, not four.
    const disney = await store.db
      .selectFrom('trades as t')
      .innerJoin('politicians as p', 'p.id', 't.politician_id')
      .select(['t.ticker', 't.exchange_from_ticker', 't.exchange_to_ticker', 't.asset_description'])
      .where('p.name', '=', 'David Perdue')
      .where('t.transaction_date', '=', '2019-03-20')
      .where('t.trade_action', '=', 'exchange')
      .orderBy('t.asset_description')
      .execute();
    expect(disney).toHaveLength(2);
    expect(disney.map((trade) => trade.ticker)).toEqual(['DIS', 'DIS']);
    const duplicates = await sql<{ n: number }>`select count(*) as n from (select filing_id from trades
      where superseded_by is null and filing_id is not null
      group by filing_id, politician_id, transaction_date, trade_action, amount_low, coalesce(owner, ''), ticker
      having count(*) > 1 and count(distinct origin) > 1) d`.execute(store.db);
    expect(Number(duplicates.rows[0]?.n)).toBe(0);
  });

  it('flags every transaction after its disclosure or in the future and leaves it out of statistics', async () => {
    const unflagged = await store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('superseded_by', 'is', null)
      .where((eb) =>
        eb.or([
          eb('transaction_date', '>', eb.ref('disclosure_date')),
          eb('transaction_date', '>', '2026-06-01'),
        ]),
      )
      .where((eb) => eb.or([eb('quality_flags', 'is', null), eb('quality_excluded', '=', 0)]))
      .executeTakeFirstOrThrow();
    expect(Number(unflagged.n)).toBe(0);
    // The Senate aggregate's rows whose eFD copies were skipped (their dates disagree) carry a flag.
    const undated = await store.db
      .selectFrom('trades')
      .select(['quality_flags'])
      .where('superseded_by', 'is', null)
      .where('disclosure_date', 'is', null)
      .execute();
    for (const trade of undated) expect(trade.quality_flags).toContain('disclosure_date_missing');

    // The data-set importers skip such rows, so the fixture holds none: a constructed one (a real
    // trade's date moved past its disclosure, as the OGE connector stores RFK Jr.'s 2225 row)
    // must be flagged by the quality pass and leave the statistics and the member's totals.
    const trade = await store.db
      .selectFrom('trades')
      .select(['id', 'politician_id', 'disclosure_date'])
      .where('superseded_by', 'is', null)
      .where('quality_excluded', '=', 0)
      .where('disclosure_date', '<', '2026-01-01')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const totalsOf = () =>
      store.db
        .selectFrom('politician_trade_totals')
        .select('trade_count')
        .where('politician_id', '=', trade.politician_id)
        .executeTakeFirstOrThrow();
    const before = { summary: await summaryCounts(store.db), totals: await totalsOf() };
    await store.db
      .updateTable('trades')
      .set({ transaction_date: '2026-01-02' })
      .where('id', '=', trade.id)
      .execute();
    await refreshTradeQuality(store.db, FIXTURE_NOW);
    const flagged = await store.db
      .selectFrom('trades')
      .select(['quality_flags', 'quality_excluded'])
      .where('id', '=', trade.id)
      .executeTakeFirstOrThrow();
    expect(flagged.quality_flags).toContain('transaction_after_disclosure');
    expect(flagged.quality_excluded).toBe(1);
    expect((await summaryCounts(store.db)).total_trades).toBe(before.summary.total_trades - 1);
    expect((await totalsOf()).trade_count).toBe(before.totals.trade_count - 1);
  });

  it('writes back every stored flag when every trade has to change at once (a first enrichment)', async () => {
    const stored = () =>
      store.db
        .selectFrom('trades')
        .select(['id', 'quality_flags', 'quality_excluded', 'identity_match'])
        .orderBy('id')
        .execute();
    const before = await stored();
    expect(before.filter((trade) => trade.quality_flags !== null).length).toBeGreaterThan(100);
    await store.db.updateTable('trades').set({ quality_flags: null, quality_excluded: 0 }).execute();
    const refresh = await refreshTradeQuality(store.db, FIXTURE_NOW);
    expect(refresh.flagsChanged).toBe(before.filter((trade) => trade.quality_flags !== null).length);
    expect(await stored()).toEqual(before);
  });

  it('writes, scoped to an ingest run, the flags and fills of the trades written since its start only', async () => {
    const flagged = await store.db
      .selectFrom('trades')
      .select(['id', 'quality_flags', 'quality_excluded', 'asset_type', 'updated_at'])
      .where('quality_flags', 'is not', null)
      .where('asset_type', 'is not', null)
      .orderBy('id')
      .limit(2)
      .execute();
    const [old, written] = flagged;
    if (!old || !written) throw new Error('the fixture has flagged trades');
    const runStart = FIXTURE_NOW.toISOString();
    await store.db
      .updateTable('trades')
      .set({
        quality_flags: null,
        quality_excluded: 0,
        asset_type: null,
        updated_at: '2000-01-01T00:00:00.000Z',
      })
      .where('id', '=', old.id)
      .execute();
    await store.db
      .updateTable('trades')
      .set({ quality_flags: null, quality_excluded: 0, asset_type: null, updated_at: runStart })
      .where('id', '=', written.id)
      .execute();
    const row = (id: number) =>
      store.db
        .selectFrom('trades')
        .select(['quality_flags', 'quality_excluded', 'asset_type'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const scoped = await refreshTradeQuality(store.db, FIXTURE_NOW, { changedSince: runStart });
    expect(scoped.flagsChanged).toBe(1);
    expect(await row(written.id)).toEqual({
      quality_flags: written.quality_flags,
      quality_excluded: written.quality_excluded,
      asset_type: written.asset_type,
    });
    expect(await row(old.id)).toEqual({ quality_flags: null, quality_excluded: 0, asset_type: null });
    // The whole pass (the enrichment job's) mends the rest.
    await refreshTradeQuality(store.db, FIXTURE_NOW);
    expect(await row(old.id)).toEqual({
      quality_flags: old.quality_flags,
      quality_excluded: old.quality_excluded,
      asset_type: old.asset_type,
    });
  });

  it("labels Pelosi's exercised call options Exercise, with their terms", async () => {
    const exercised = await store.db
      .selectFrom('trades as t')
      .innerJoin('politicians as p', 'p.id', 't.politician_id')
      .select([
        't.ticker',
        't.trade_type',
        't.trade_action',
        't.option_type',
        't.strike_price',
        't.option_expiry',
      ])
      .where('p.last_name', '=', 'Pelosi')
      .where('t.asset_description', 'like', 'Tesla Inc - Exercised 25 Call options%')
      .execute();
    expect(exercised.length).toBeGreaterThan(0);
    for (const trade of exercised)
      expect(trade).toEqual({
        ticker: 'TSLA',
        trade_type: 'Exercise',
        trade_action: 'exercise',
        option_type: 'Call',
        strike_price: 500,
        option_expiry: '2022-03-18',
      });
  });

  it("counts Hoyer's PAC money once per contribution, whatever links a company name has", async () => {
    const hoyer = await candidateIdsOf(store.db, 'H000874');
    expect(hoyer.length).toBeGreaterThan(0);
    const filed = await store.db
      .selectFrom('fec_committee_contributions')
      .select((eb) => [eb.fn.sum<number>('amount').as('amount'), eb.fn.countAll<number>().as('n')])
      .where('candidate_id', 'in', hoyer)
      .where('memo', '=', 0)
      .executeTakeFirstOrThrow();
    // A second link of the same name by another method (as lobbying and contracts add them).
    const linked = await store.db
      .selectFrom('company_links')
      .selectAll()
      .where('identifier_kind', '=', 'name')
      .where('ticker', 'is not', null)
      .limit(200)
      .execute();
    for (const link of linked)
      await store.db
        .insertInto('company_links')
        .values({
          ...link,
          id: undefined,
          method: link.method === 'manual' ? 'exact' : 'manual',
          confidence: 0.5,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    const rows = await pacContributionsByCompany(store.db, hoyer, { limit: 100000 });
    expect(rows.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(Number(filed.amount));
    expect(rows.reduce((sum, row) => sum + Number(row.contributions), 0)).toBe(Number(filed.n));
    const committees = await committeeIdsOf(store.db, hoyer);
    const employers = await topEmployers(store.db, committees, { limit: 100000 });
    const employerTotal = await store.db
      .selectFrom('fec_employer_totals')
      .select((eb) => eb.fn.sum<number>('amount').as('amount'))
      .where('committee_id', 'in', committees.length ? committees : [''])
      .executeTakeFirstOrThrow();
    expect(employers.reduce((sum, row) => sum + Number(row.amount), 0)).toBe(
      Number(employerTotal.amount ?? 0),
    );
  });

  it('ranks by a statistic only members with min_trades enriched trades', async () => {
    const page = await listProfiles(
      store.db,
      { hasTrades: true },
      { column: 'avg_alpha_90d', direction: 'desc', minTrades: DEFAULT_MIN_TRADES },
      { limit: 5, offset: 0 },
    );
    expect(page.length).toBe(5);
    for (const member of page)
      expect(Number(member.enriched_trades)).toBeGreaterThanOrEqual(DEFAULT_MIN_TRADES);
    const unfiltered = await listProfiles(
      store.db,
      { hasTrades: true },
      { column: 'avg_alpha_90d', direction: 'desc', minTrades: 0 },
      { limit: 5, offset: 0 },
    );
    expect(unfiltered.some((member) => Number(member.enriched_trades) < DEFAULT_MIN_TRADES)).toBe(true);
  });

  it('moves trades to the right person with `members link` and audits the link', async () => {
    const mitch = await personOf('M000355');
    const william = await personOf('M000357');
    const before = await qualityAudit(store.db, 'test');
    const link = await linkIdentity(store.db, {
      fromPoliticianId: mitch.id,
      toPoliticianId: william.id,
      filingId: null,
      linkedBy: 'test operator',
      reason: 'constructed: a link the other way, to see it move and be recorded',
    });
    expect(link.tradesMoved).toBeGreaterThan(0);
    const moved = await store.db
      .selectFrom('trades')
      .select(['identity_match'])
      .where('politician_id', '=', william.id)
      .execute();
    expect(moved).toHaveLength(link.tradesMoved);
    expect(new Set(moved.map((trade) => trade.identity_match))).toEqual(new Set(['manual']));
    const totals = await store.db
      .selectFrom('politician_trade_totals')
      .select('trade_count')
      .where('politician_id', '=', william.id)
      .executeTakeFirstOrThrow();
    expect(totals.trade_count).toBe(link.tradesMoved);
    await refreshTradeQuality(store.db);
    const after = await qualityAudit(store.db, 'test');
    expect(after.totals.manual_links).toBe(before.totals.manual_links + 1);
    expect(after.totals.trades).toBe(before.totals.trades);
  });
});
