// The stored results of GET /legislation/suspicious-timing and GET /clusters/recent (migration
// 0075-stored-analytics) on the real data, on whichever database the suite runs on (SQLite by
// default, PostgreSQL with DCLEDGER_TEST_DATABASE_URL): every answer read from the stored rows
// equals, field by field, the answer the rule computes over the range; a change to an input makes
// the stored rows stale (answers are computed meanwhile), and the rebuild brings the change in.
// The rebuilds here are the range results' own (refreshRangeAnalytics): every change below also
// makes the other stored results stale, and rebuilding those (the company dossiers of every
// traded ticker above all) would prove nothing about these; enrich runs the whole refresh, and
// builds the fixture this file copies.

import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nullGatedFields } from '../accounts/metering.js';
import { PLAN_GATED_FIELDS } from '../accounts/plans.js';
import { SOURCE_OF_CHAMBER_FILTER } from '../domain/sources.js';
import { readVoteviewDir, saveVoteviewSets } from '../ingest/votes/import.js';
import { TimingHitSchema } from '../resources/suspicious-timing.js';
import type { AnalyticsTradeRange } from '../storage/repositories/analytics-clusters.js';
import {
  countStoredHitRows,
  storedAnalyticsCurrent,
  sumStoredTimingCounts,
} from '../storage/repositories/stored-analytics.js';
import { storedTimingPageJson } from '../storage/repositories/stored-analytics-json.js';
import type { Database } from '../storage/schema.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { expectSamePage } from '../test-support/database-json.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { type ClusterParams, findClusterPage } from './clusters.js';
import { refreshRangeAnalytics } from './stored-analytics.js';
import { findTimingHits, type TimingParams } from './suspicious-timing.js';

const YEAR = { from: '2025-06-01', to: '2026-06-01' };
const tradeFields = Object.keys(TimingHitSchema.properties.trade.properties);
const DECADE = { from: '2016-06-01', to: '2026-06-01' };
const BOTH = ['committee', 'floor'] as const;

const TIMING_CASES: { name: string; range: AnalyticsTradeRange; params: TimingParams; offset: number }[] = [
  { name: 'a year, defaults', range: YEAR, params: { daysBefore: 30, kinds: BOTH }, offset: 0 },
  { name: 'a decade, 365 days before', range: DECADE, params: { daysBefore: 365, kinds: BOTH }, offset: 0 },
  {
    name: 'a decade, 365 days before, third page',
    range: DECADE,
    params: { daysBefore: 365, kinds: BOTH },
    offset: 50,
  },
  {
    name: 'a decade, floor votes, 60 days',
    range: DECADE,
    params: { daysBefore: 60, kinds: ['floor'] },
    offset: 0,
  },
  {
    name: 'a decade, committee actions, 90 days',
    range: DECADE,
    params: { daysBefore: 90, kinds: ['committee'] },
    offset: 0,
  },
  {
    name: 'a decade of House buys from $15,001',
    range: {
      ...DECADE,
      sources: [SOURCE_OF_CHAMBER_FILTER.house ?? ''],
      actions: ['buy'],
      minAmount: 15_001,
    },
    params: { daysBefore: 120, kinds: BOTH },
    offset: 0,
  },
];

const CLUSTER_CASES: { name: string; range: AnalyticsTradeRange; params: ClusterParams; offset: number }[] = [
  { name: 'a year, defaults', range: YEAR, params: { minMembers: 3, windowDays: 7 }, offset: 0 },
  { name: 'a decade, defaults', range: DECADE, params: { minMembers: 3, windowDays: 7 }, offset: 0 },
  { name: 'a decade, second page', range: DECADE, params: { minMembers: 3, windowDays: 7 }, offset: 25 },
  {
    name: 'a decade, 4 members in 5 days',
    range: DECADE,
    params: { minMembers: 4, windowDays: 5 },
    offset: 0,
  },
  {
    name: 'a decade of House sells',
    range: { ...DECADE, sources: [SOURCE_OF_CHAMBER_FILTER.house ?? ''], actions: ['sell'] },
    params: { minMembers: 3, windowDays: 7 },
    offset: 0,
  },
  {
    name: 'not covered: 2 members in 30 days',
    range: YEAR,
    params: { minMembers: 2, windowDays: 30 },
    offset: 0,
  },
];

const timing = (db: Kysely<Database>, c: (typeof TIMING_CASES)[number]) =>
  findTimingHits(db, c.range, c.params, { limit: 25, offset: c.offset });
const clusters = (db: Kysely<Database>, c: (typeof CLUSTER_CASES)[number]) =>
  findClusterPage(db, c.range, c.params, { limit: 25, offset: c.offset });

/** Marks the stored results stale for the duration of `work`, so that the rule is computed over the range. */
async function recomputed<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  const { id } = await db
    .insertInto('analytics_changes')
    .values({ scope: 'trades' })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    expect(await storedAnalyticsCurrent(db)).toEqual({ timing: false, clusters: false });
    return await work();
  } finally {
    await db.deleteFrom('analytics_changes').where('id', '=', id).execute();
  }
}

describe.skipIf(!realDataAvailable())('stored timing hits and clustered trades', () => {
  let ctx: FixtureApp;
  let db: Kysely<Database>;
  // Waits first for the real-data fixture built in the background: minutes on PostgreSQL.
  beforeAll(async () => {
    ctx = await openFixtureApp();
    db = ctx.store.db;
    // The House roll calls of the 119th Congress (the fixture holds the Senate's only).
    const house = readVoteviewDir(join(inject('dataDir') ?? '', 'related/votes/voteview')).filter(
      (set) => set.name === 'H119',
    );
    await saveVoteviewSets(db, house, { now: FIXTURE_NOW });
    const report = await refreshRangeAnalytics(db, { force: true });
    expect(report.rebuilt).toBe(true);
    expect(report.timing_hits).toBeGreaterThan(0);
    expect(report.cluster_trades).toBeGreaterThan(0);
  }, 600_000);
  afterAll(async () => ctx?.close());

  it('are current after the rebuild, and a second refresh does nothing', async () => {
    expect(await storedAnalyticsCurrent(db)).toEqual({ timing: true, clusters: true });
    expect((await refreshRangeAnalytics(db)).rebuilt).toBe(false);
  });

  it.each(TIMING_CASES)('timing from the stored hits equals the computed answer: $name', async (c) => {
    const expected = await recomputed(db, () => timing(db, c));
    // Committee actions name committees; the seats that match them start with the 119th Congress.
    if (c.params.kinds.includes('floor')) expect(expected.hits.length).toBeGreaterThan(0);
    expect(await timing(db, c)).toEqual(expected);
  });

  it.each(TIMING_CASES)('the database writes the stored page as the same JSON: $name', async (c) => {
    const objects = await timing(db, c);
    const page = { limit: 25, offset: c.offset };
    const written = await storedTimingPageJson(
      db,
      c.range,
      { ...c.params, tradeFields, nulled: new Set() },
      page,
    );
    expectSamePage(written, objects.hits, c.name);
  });

  it('writes a page of a thousand hits, with a plan-gated field null where the caller may not see it', async () => {
    const c = TIMING_CASES[1];
    if (!c) throw new Error('cases');
    const page = { limit: 1000, offset: 0 };
    const objects = (await findTimingHits(db, c.range, c.params, page)).hits;
    expect(objects.length).toBeGreaterThan(100);
    expect(objects.some((hit) => hit.later_move.alpha_30d !== null)).toBe(true);
    const nulled = new Set(PLAN_GATED_FIELDS);
    const written = await storedTimingPageJson(db, c.range, { ...c.params, tradeFields, nulled }, page);
    const hidden = structuredClone(objects);
    nullGatedFields(hidden);
    expectSamePage(written, hidden, 'gated fields null');
  });

  it('GET /legislation/suspicious-timing answers from the stored hits as it does computing them', async () => {
    const url =
      '/legislation/suspicious-timing?date_from=2016-06-01&date_to=2026-06-01&days_before=365&limit=1000';
    const stored = await getJson<{ hits: unknown[] }>(ctx, url);
    const computed = await recomputed(db, () => getJson<{ hits: unknown[] }>(ctx, url));
    expect(stored.status).toBe(200);
    expect(stored.body.hits.length).toBeGreaterThan(100);
    expect(JSON.stringify(stored.body)).toBe(JSON.stringify(computed.body));
    for (const header of ['link', 'x-credits-charged', 'content-type'])
      expect(stored.headers[header], header).toEqual(computed.headers[header]);
  });

  it('the counts per day give every range of dates the totals its hits give, at every days_before and set of kinds', async () => {
    // Ranges that start and end inside the stored hits, on days with hits and without; every
    // days_before from the shortest through the stored widest, where hits of one trade at two
    // distances decide the nearest one; each set of kinds a request can ask for.
    const days = (await db.selectFrom('timing_hits').select('transaction_date').distinct().execute())
      .map((row) => row.transaction_date)
      .sort();
    const at = (share: number) => days[Math.floor(share * (days.length - 1))] ?? '';
    const ranges = [DECADE, YEAR, { from: at(0.2), to: at(0.8) }, { from: at(0.5), to: at(0.5) }];
    let compared = 0;
    for (const range of ranges)
      for (const daysBefore of [1, 7, 30, 89, 365])
        for (const kinds of [BOTH, ['floor'], ['committee'], ['floor', 'committee', 'floor']]) {
          const rows = await countStoredHitRows(db, range, daysBefore, kinds);
          expect(
            await sumStoredTimingCounts(db, range, daysBefore, kinds),
            JSON.stringify({ range, daysBefore, kinds }),
          ).toEqual(rows);
          if (rows.total > rows.trades) compared++;
        }
    // The comparison means something only where trades have more than one hit.
    expect(compared).toBeGreaterThan(10);
  });

  it.each(CLUSTER_CASES)('clusters from the stored trades equal the computed answer: $name', async (c) => {
    const expected = await recomputed(db, () => clusters(db, c));
    expect(expected.total).toBeGreaterThan(0);
    expect(await clusters(db, c)).toEqual(expected);
  });

  it('answers from the stored rows while they are current (emptied, they answer nothing)', async () => {
    const year = TIMING_CASES[0];
    const cluster = CLUSTER_CASES[0];
    if (!year || !cluster) throw new Error('cases');
    await db.deleteFrom('timing_hits').execute();
    await db.deleteFrom('timing_counts').execute();
    await db.deleteFrom('cluster_trades').execute();
    expect((await timing(db, year)).total).toBe(0);
    expect((await clusters(db, cluster)).total).toBe(0);
    // ... until a change makes them stale: then the rule is computed.
    expect((await recomputed(db, () => timing(db, year))).total).toBeGreaterThan(0);
    await refreshRangeAnalytics(db, { force: true });
    expect((await timing(db, year)).total).toBeGreaterThan(0);
  });

  it('a new trade, an amendment and a deletion change the stored answers', async () => {
    const year = TIMING_CASES[0];
    if (!year) throw new Error('cases');
    const before = await timing(db, year);
    const hit = before.hits[0];
    if (!hit) throw new Error('no hit');
    // CONSTRUCTED: the member of the first hit buys the same stock a day earlier.
    const original = await db
      .selectFrom('trades')
      .selectAll()
      .where('id', '=', hit.trade.id)
      .executeTakeFirstOrThrow();
    const { id: _id, ...copy } = original;
    const earlier = new Date(Date.parse(`${hit.trade.transaction_date}T00:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10);
    const { id: added } = await db
      .insertInto('trades')
      .values({ ...copy, source_key: `${copy.source_key}#constructed-earlier`, transaction_date: earlier })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await storedAnalyticsCurrent(db)).toEqual({ timing: false, clusters: false });
    // Stale: computed meanwhile, so the new trade is in the answer already.
    const computed = await timing(db, { ...year, params: { ...year.params, daysBefore: 365 } });
    expect((await refreshRangeAnalytics(db)).rebuilt).toBe(true);
    const stored = await timing(db, { ...year, params: { ...year.params, daysBefore: 365 } });
    expect(stored).toEqual(computed);
    expect(
      (await db.selectFrom('timing_hits').select('rank').where('trade_id', '=', added).execute()).length,
    ).toBeGreaterThan(0);
    expect((await timing(db, year)).total).toBeGreaterThan(before.total);

    // An amendment supersedes it: its hits go.
    await db.updateTable('trades').set({ superseded_by: original.id }).where('id', '=', added).execute();
    expect((await storedAnalyticsCurrent(db)).timing).toBe(false);
    await refreshRangeAnalytics(db);
    expect(await db.selectFrom('timing_hits').select('rank').where('trade_id', '=', added).execute()).toEqual(
      [],
    );
    expect(await timing(db, year)).toEqual(before);

    // Deleted, it stays out; the stored answer is the one before it was added.
    await db.deleteFrom('trades').where('id', '=', added).execute();
    expect((await storedAnalyticsCurrent(db)).timing).toBe(false);
    await refreshRangeAnalytics(db);
    expect(await timing(db, year)).toEqual(before);
  });

  it('three members trading a new ticker together make a new stored cluster', async () => {
    const members = await db.selectFrom('politicians').select('id').orderBy('id').limit(3).execute();
    const range = { from: '2026-05-01', to: '2026-05-31' };
    const params = { minMembers: 3, windowDays: 7 };
    const ask = () => findClusterPage(db, range, params, { limit: 25, offset: 0 });
    const before = await ask();
    // CONSTRUCTED: three buys of an unknown ticker within three days by three members.
    await db
      .insertInto('trades')
      .values(
        members.map((member, index) => ({
          politician_id: member.id,
          source: SOURCE_OF_CHAMBER_FILTER.senate ?? '',
          source_key: `constructed#cluster-${index}`,
          origin: 'constructed',
          ticker: 'ZZCL',
          trade_type: 'purchase',
          trade_action: 'buy',
          transaction_date: `2026-05-1${index}`,
          is_ma_affected: 0,
          created_at: '2026-05-20T00:00:00.000Z',
          updated_at: '2026-05-20T00:00:00.000Z',
        })),
      )
      .execute();
    expect((await storedAnalyticsCurrent(db)).clusters).toBe(false);
    const computed = await ask();
    expect(computed.total).toBe(before.total + 1);
    await refreshRangeAnalytics(db);
    expect((await storedAnalyticsCurrent(db)).clusters).toBe(true);
    const stored = await ask();
    expect(stored).toEqual(computed);
    expect(stored.clusters.some((cluster) => cluster.ticker === 'ZZCL')).toBe(true);
  });

  it('a legislative change or a sector makes only the timing hits stale', async () => {
    const action = await db
      .selectFrom('bill_actions')
      .select(['bill_id', 'seq'])
      .limit(1)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('bill_actions')
      .set({ text: 'changed' })
      .where('bill_id', '=', action.bill_id)
      .where('seq', '=', action.seq)
      .execute();
    expect(await storedAnalyticsCurrent(db)).toEqual({ timing: false, clusters: true });
    await refreshRangeAnalytics(db);
    const trade = await db.selectFrom('trades').select('id').limit(1).executeTakeFirstOrThrow();
    await db.updateTable('trades').set({ sector: 'Constructed' }).where('id', '=', trade.id).execute();
    expect(await storedAnalyticsCurrent(db)).toEqual({ timing: false, clusters: true });
    await refreshRangeAnalytics(db);
    // A column neither result reads changes nothing.
    await db.updateTable('trades').set({ comment: 'constructed' }).where('id', '=', trade.id).execute();
    expect(await storedAnalyticsCurrent(db)).toEqual({ timing: true, clusters: true });
  });
});
