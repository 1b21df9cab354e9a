// GET /clusters/recent from the stored clusters' answer text (migration 0104-stored-cluster-answers)
// on the real data, on whichever database the suite runs on (SQLite by default, PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL): for many ranges, filters, parameters and pages the answer read from
// the stored text is byte for byte the answer the route builds and serializes without it; the
// stored text is what is read while current; a change of anything a cluster shows (a disclosure
// date filled by enrichment, a trade's type relabelled, a member renamed, a seat added, an
// amendment superseding a trade) makes it stale, so the answer is built meanwhile, and the next
// refresh brings the change in.

import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshRangeAnalytics, refreshStoredClusterAnswers } from '../../../analytics/stored-analytics.js';
import { addDays } from '../../../domain/dates.js';
import { storedRecentClusters } from '../../../services/clusters.js';
import { storedResultCurrent } from '../../../storage/repositories/stored-analytics.js';
import type { Database } from '../../../storage/schema.js';
import { type FixtureApp, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';
import { FIXTURE_NOW } from '../../../test-support/real-data.js';
import { parseAnalyticsRange } from '../../schemas/analytics-range.js';

const current = (db: Kysely<Database>) => storedResultCurrent(db, 'cluster_answers');

/** Whether the service answers this query from the stored text (the route then sends it). */
async function readsStored(db: Kysely<Database>, url: string): Promise<boolean> {
  const query = Object.fromEntries(new URL(url, 'http://localhost').searchParams);
  const number = (name: string) => (query[name] === undefined ? undefined : Number(query[name]));
  const range = parseAnalyticsRange(
    {
      ...(number('days') === undefined ? {} : { days: number('days') }),
      ...(query.date_from === undefined ? {} : { date_from: query.date_from, date_to: query.date_to }),
      ...(query.chamber === undefined ? {} : { chamber: query.chamber }),
      ...(query.ticker === undefined ? {} : { ticker: query.ticker }),
      ...(query.trade_type === undefined ? {} : { trade_type: query.trade_type }),
    },
    FIXTURE_NOW,
  );
  const stored = await storedRecentClusters(db, range, {
    ...(number('min_members') === undefined ? {} : { min_members: number('min_members') }),
    ...(number('window_days') === undefined ? {} : { window_days: number('window_days') }),
    limit: number('limit') ?? 25,
    offset: number('offset') ?? 0,
  });
  return stored !== undefined;
}

describe.skipIf(!realDataAvailable())('GET /clusters/recent from the stored answer text', () => {
  let ctx: FixtureApp;
  let db: Kysely<Database>;

  async function answer(
    url: string,
  ): Promise<{ status: number; body: string; link: unknown; charged: unknown }> {
    const response = await ctx.app.inject({ method: 'GET', url, headers: { 'dc-api-key': ctx.key } });
    return {
      status: response.statusCode,
      body: response.body,
      link: response.headers.link,
      charged: response.headers['x-credits-charged'],
    };
  }

  /** The answer built now: the stored text made stale for the call, as a trigger would. */
  async function built(url: string) {
    const { id } = await db
      .insertInto('analytics_changes')
      .values({ scope: 'cluster_answers' })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      expect(await readsStored(db, url)).toBe(false);
      return await answer(url);
    } finally {
      await db.deleteFrom('analytics_changes').where('id', '=', id).execute();
    }
  }

  beforeAll(async () => {
    ctx = await openFixtureApp();
    db = ctx.store.db;
    const report = await refreshRangeAnalytics(db, { now: FIXTURE_NOW, force: true });
    expect(report.clusters).toBeGreaterThan(20);
  }, 300_000);
  afterAll(async () => ctx?.close());

  it('are current after the rebuild, and a second refresh does nothing', async () => {
    expect(await current(db)).toBe(true);
    expect((await refreshStoredClusterAnswers(db, { now: FIXTURE_NOW })).rebuilt).toBe(false);
  });

  it('answers, byte for byte, what the route builds, for many ranges, filters, parameters and pages', async () => {
    // Ranges whose edges cut stored clusters: one ending on the second day of a cluster several
    // days long, one starting on it (its cut clusters are counted but not on the first page).
    const long = await db
      .selectFrom('cluster_answers')
      .select(['window_from', 'window_to'])
      .where('window_from', '>=', '2018-01-01')
      .orderBy('trade_count', 'desc')
      .limit(3)
      .execute();
    const cutting = long.flatMap((cluster) => [
      `/clusters/recent?date_from=2016-06-01&date_to=${addDays(cluster.window_from, 1)}`,
      `/clusters/recent?date_from=${addDays(cluster.window_from, 1)}&date_to=2026-06-01`,
      `/clusters/recent?date_from=${addDays(cluster.window_from, 1)}&date_to=2026-06-01&offset=10&limit=200`,
    ]);
    const urls = [
      '/clusters/recent',
      '/clusters/recent?days=365',
      '/clusters/recent?days=3650',
      '/clusters/recent?days=3650&offset=25',
      '/clusters/recent?days=3650&limit=1000',
      '/clusters/recent?days=3650&limit=7&offset=3',
      '/clusters/recent?days=3650&offset=5000',
      '/clusters/recent?days=3650&min_members=3&window_days=7',
      '/clusters/recent?days=3650&min_members=4',
      '/clusters/recent?days=3650&window_days=5',
      '/clusters/recent?days=3650&min_members=2&window_days=14',
      '/clusters/recent?days=3650&chamber=house',
      '/clusters/recent?days=3650&chamber=senate',
      '/clusters/recent?days=3650&chamber=house,senate',
      '/clusters/recent?days=3650&chamber=senate&limit=1000',
      '/clusters/recent?days=3650&trade_type=buy',
      '/clusters/recent?days=3650&trade_type=sell,exchange&limit=100',
      '/clusters/recent?days=3650&ticker=AAPL,MSFT,NVDA,GOOG',
      '/clusters/recent?days=3650&ticker=goog&trade_type=buy',
      '/clusters/recent?days=3650&ticker=AAPL&chamber=house',
      '/clusters/recent?date_from=2020-01-01&date_to=2020-12-31',
      '/clusters/recent?date_from=2020-03-05&date_to=2020-03-20&limit=50',
      '/clusters/recent?date_from=2025-10-20&date_to=2025-11-10&ticker=GOOG',
      '/clusters/recent?date_from=2000-01-01&date_to=2026-06-01&limit=1000',
      ...cutting,
    ];
    let storedCount = 0;
    for (const url of urls) {
      const usesStored = await readsStored(db, url);
      if (usesStored) storedCount += 1;
      const stored = await answer(url);
      expect(stored.status, url).toBe(200);
      const expected = await built(url);
      expect(stored, url).toEqual(expected);
      expect(JSON.parse(stored.body), url).toEqual(JSON.parse(expected.body));
    }
    // The defaults' ranges and the filters a stored cluster holds whole are read from the text.
    for (const url of [
      '/clusters/recent?days=3650',
      '/clusters/recent?days=3650&offset=25',
      '/clusters/recent?days=3650&ticker=AAPL,MSFT,NVDA,GOOG',
      '/clusters/recent?days=3650&trade_type=buy',
    ])
      expect(await readsStored(db, url), url).toBe(true);
    expect(storedCount).toBeGreaterThan(urls.length / 2);
    const decade = JSON.parse((await answer('/clusters/recent?days=3650')).body);
    expect(decade.clusters).toHaveLength(25);
    expect(decade.total).toBeGreaterThan(25);
  }, 600_000);

  it('reads the stored text while it is current', async () => {
    const url = '/clusters/recent?days=3650&limit=1';
    const before = JSON.parse((await answer(url)).body);
    const first = before.clusters[0];
    // Written to the stored table directly: no input changed, so the text stays current.
    await db
      .updateTable('cluster_answers')
      .set({ json: JSON.stringify({ ...first, ticker: 'ZZSTORED' }) })
      .where('ticker', '=', first.ticker)
      .where('direction', '=', first.direction)
      .where('window_to', '=', first.window.to)
      .execute();
    expect(JSON.parse((await answer(url)).body).clusters[0].ticker).toBe('ZZSTORED');
    await refreshStoredClusterAnswers(db, { now: FIXTURE_NOW, force: true });
    expect(JSON.parse((await answer(url)).body)).toEqual(before);
  });

  /** The first stored cluster of the decade, its trade ids and its members' ids. */
  async function newestCluster() {
    const body = JSON.parse((await answer('/clusters/recent?days=3650&limit=1')).body);
    const cluster = body.clusters[0];
    const trades: number[] = cluster.members.flatMap((member: { trades: { id: number }[] }) =>
      member.trades.map((trade) => trade.id),
    );
    return {
      body,
      cluster,
      trades,
      members: cluster.members.map((m: { politician_id: number }) => m.politician_id),
    };
  }

  /** After a write: not current, the answer built shows the change, the refresh stores it. */
  async function followsChange(url: string, change: () => Promise<void>, shows: (body: string) => boolean) {
    await change();
    expect(await current(db)).toBe(false);
    expect(await readsStored(db, url)).toBe(false);
    const meanwhile = await answer(url);
    expect(shows(meanwhile.body)).toBe(true);
    await refreshRangeAnalytics(db, { now: FIXTURE_NOW });
    await refreshStoredClusterAnswers(db, { now: FIXTURE_NOW });
    expect(await current(db)).toBe(true);
    expect(await readsStored(db, url)).toBe(true);
    expect(await answer(url)).toEqual(meanwhile);
  }

  it('a disclosure date filled, a trade relabelled, a member renamed or a seat added is not served stale', async () => {
    const url = '/clusters/recent?days=3650';
    const { trades, members } = await newestCluster();
    const [tradeId] = trades;
    const [memberId] = members;
    if (tradeId === undefined || memberId === undefined) throw new Error('empty cluster');
    await followsChange(
      url,
      async () => {
        await db
          .updateTable('trades')
          .set({ disclosure_date: '2026-05-31' })
          .where('id', '=', tradeId)
          .execute();
      },
      (body) =>
        body.includes(`"id":${tradeId},"transaction_date"`) &&
        body.includes('"disclosure_date":"2026-05-31"'),
    );
    await followsChange(
      url,
      async () => {
        await db
          .updateTable('trades')
          .set({ trade_type: 'Constructed type' })
          .where('id', '=', tradeId)
          .execute();
      },
      (body) => body.includes('"trade_type":"Constructed type"'),
    );
    await followsChange(
      url,
      async () => {
        await db
          .updateTable('politicians')
          .set({ name: 'Constructed Renamed' })
          .where('id', '=', memberId)
          .execute();
      },
      (body) => body.includes('"name":"Constructed Renamed"'),
    );
    // CONSTRUCTED: every member of the cluster seated on one committee since 2000: two or more of
    // them now share it.
    const bioguides = (
      await db.selectFrom('politicians').select('bioguide_id').where('id', 'in', members).execute()
    ).flatMap((row) => (row.bioguide_id === null ? [] : [row.bioguide_id]));
    expect(bioguides.length).toBeGreaterThanOrEqual(2);
    const committee = await db
      .selectFrom('committees')
      .select('id')
      .where('parent_id', 'is', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await followsChange(
      url,
      async () => {
        await db
          .insertInto('committee_seats')
          .values(
            bioguides.map((bioguide) => ({
              committee_id: committee.id,
              bioguide_id: bioguide,
              side: 'majority',
              title: 'Constructed Seat',
              rank: null,
              start_date: '2000-01-01',
              start_basis: 'constructed',
              end_date: null,
              updated_at: '2026-05-31T00:00:00.000Z',
            })),
          )
          .execute();
      },
      (body) => body.includes('"title":"Constructed Seat"'),
    );
  }, 300_000);

  it('an amendment superseding a clustered trade changes the stored clusters and their text', async () => {
    const url = '/clusters/recent?days=3650&limit=1000';
    const before = JSON.parse((await answer(url)).body);
    const { trades } = await newestCluster();
    const [tradeId] = trades;
    if (tradeId === undefined) throw new Error('empty cluster');
    await db.updateTable('trades').set({ superseded_by: tradeId }).where('id', '=', tradeId).execute();
    expect(await current(db)).toBe(false);
    const meanwhile = await answer(url);
    expect(meanwhile.body).not.toContain(`"id":${tradeId},`);
    expect(meanwhile.body).not.toEqual(JSON.stringify(before));
    const report = await refreshRangeAnalytics(db, { now: FIXTURE_NOW });
    expect(report.rebuilt).toBe(true);
    expect(await readsStored(db, url)).toBe(true);
    expect(await answer(url)).toEqual(meanwhile);
  }, 300_000);
});
