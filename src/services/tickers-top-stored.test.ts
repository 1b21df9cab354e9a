// GET /tickers/top from its stored rankings (migration 0095-stored-top-tickers) on the real data, on
// whichever database the suite runs on (SQLite by default, PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL): for every stored window, as of the rebuild's day and the next, with
// and without chamber and direction filters and at several page sizes, the answer equals, field by
// field, the grouping over the window's trades; a trade inserted, amended, flagged or deleted makes
// the rankings stale (answers are computed meanwhile), and so does a day past the next.

import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshStoredTopTickers } from '../analytics/stored-analytics.js';
import { addDays, todayUtc } from '../domain/dates.js';
import { topTickers } from '../storage/repositories/stats.js';
import { STORED_TOP_WINDOWS, storedTopTickersCover } from '../storage/repositories/stored-top-tickers.js';
import type { Database } from '../storage/schema.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { mostTraded } from './tickers.js';
import { parseTradeFilters } from './trade-params.js';

const DAY_MS = 86_400_000;
const TOMORROW = new Date(FIXTURE_NOW.getTime() + DAY_MS);

type Params = { days: number; limit: number; chamber?: string; trade_type?: string };

/** The filters and pages every stored window is asked with. */
const FILTERS: Omit<Params, 'days'>[] = [
  { limit: 25 },
  { limit: 1 },
  { limit: 1000 },
  { limit: 100, chamber: 'senate' },
  { limit: 25, chamber: 'house', trade_type: 'sell' },
  { limit: 1000, trade_type: 'buy,sell', chamber: 'house,senate' },
  { limit: 25, trade_type: 'exchange' },
  { limit: 25, chamber: 'executive' },
  { limit: 50, trade_type: 'BUY' },
];

const CASES = STORED_TOP_WINDOWS.flatMap((days) => FILTERS.map((filter) => ({ days, ...filter })));

/** The answer grouped from the window's trades, as the route computed it before rankings were stored. */
function computed(db: Kysely<Database>, params: Params, now: Date) {
  const filters = parseTradeFilters({ chamber: params.chamber, trade_type: params.trade_type });
  return topTickers(
    db,
    {
      disclosedFrom: addDays(todayUtc(now), -params.days),
      sources: filters.sources,
      actions: filters.actions,
    },
    params.limit,
  );
}

const covered = (db: Kysely<Database>, days: number, now: Date) =>
  storedTopTickersCover(db, { asOf: todayUtc(now), days });

describe.skipIf(!realDataAvailable())('stored most-traded tickers', () => {
  let ctx: FixtureApp;
  let db: Kysely<Database>;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    db = ctx.store.db;
    const report = await refreshStoredTopTickers(db, { now: FIXTURE_NOW, force: true });
    expect(report.rebuilt).toBe(true);
    expect(report.ranked).toBeGreaterThan(1000);
  }, 120_000);
  afterAll(async () => ctx?.close());

  it('are current after the rebuild, for today and tomorrow, and a second refresh does nothing', async () => {
    for (const days of STORED_TOP_WINDOWS) {
      expect(await covered(db, days, FIXTURE_NOW)).toBe(true);
      expect(await covered(db, days, TOMORROW)).toBe(true);
      expect(await covered(db, days, new Date(FIXTURE_NOW.getTime() + 2 * DAY_MS))).toBe(false);
      expect(await covered(db, days, new Date(FIXTURE_NOW.getTime() - DAY_MS))).toBe(false);
    }
    expect(await covered(db, 30, FIXTURE_NOW)).toBe(false);
    expect((await refreshStoredTopTickers(db, { now: FIXTURE_NOW })).rebuilt).toBe(false);
  });

  it.each(CASES)(
    'stored equals computed: $days days, $limit rows, chamber $chamber, type $trade_type',
    async (c) => {
      for (const now of [FIXTURE_NOW, TOMORROW]) {
        expect(await covered(db, c.days, now)).toBe(true);
        const expected = await computed(db, c, now);
        expect(await mostTraded(db, c, now)).toEqual(expected);
      }
    },
  );

  it('the stored answers are not empty where the data has trades, and tie-break on the ticker', async () => {
    const decade = await mostTraded(db, { days: 3650, limit: 1000 }, FIXTURE_NOW);
    expect(decade).toHaveLength(1000);
    const senateSells = await mostTraded(
      db,
      { days: 3650, limit: 1000, chamber: 'senate', trade_type: 'sell' },
      FIXTURE_NOW,
    );
    expect(senateSells.length).toBeGreaterThan(100);
    expect(senateSells.every((row) => row.buy_count === 0 && row.sell_count === row.trade_count)).toBe(true);
    for (const rows of [decade, senateSells]) {
      for (const [index, row] of rows.entries()) {
        const next = rows[index + 1];
        if (next && next.trade_count === row.trade_count) expect(row.ticker < next.ticker).toBe(true);
      }
    }
  });

  it('GET /tickers/top answers the stored ranking', async () => {
    for (const url of [
      '/tickers/top',
      '/tickers/top?days=3650',
      '/tickers/top?days=365&chamber=house&limit=200',
    ]) {
      const query = new URL(url, 'http://localhost').searchParams;
      const params = {
        days: Number(query.get('days') ?? 90),
        limit: Number(query.get('limit') ?? 25),
        chamber: query.get('chamber') ?? undefined,
      };
      const { status, body } = await getJson(ctx, url);
      expect(status).toBe(200);
      expect(body).toEqual(await computed(db, params, ctx.clock.now));
    }
  });

  it('reads the stored rows while they are current (changed by hand, the answer follows)', async () => {
    const params = { days: 3650, limit: 3 };
    const [first] = await mostTraded(db, params, FIXTURE_NOW);
    if (!first) throw new Error('no ranking');
    // Written to the stored table directly: no trade changed, so the rankings stay current.
    await db
      .updateTable('top_ticker_ranks')
      .set({ trade_count: first.trade_count + 1 })
      .where('as_of', '=', todayUtc(FIXTURE_NOW))
      .where('window_days', '=', 3650)
      .where('rank', '=', 0)
      .execute();
    expect((await mostTraded(db, params, FIXTURE_NOW))[0]?.trade_count).toBe(first.trade_count + 1);
    await refreshStoredTopTickers(db, { now: FIXTURE_NOW, force: true });
    expect((await mostTraded(db, params, FIXTURE_NOW))[0]).toEqual(first);
  });

  it('a window whose rows are not stored (a window newly added to the stored ones) is computed', async () => {
    const params = { days: 365, limit: 25, trade_type: 'sell' };
    await db
      .deleteFrom('top_ticker_ranks')
      .where('as_of', '=', todayUtc(FIXTURE_NOW))
      .where('window_days', '=', 365)
      .execute();
    expect(await covered(db, 365, FIXTURE_NOW)).toBe(false);
    expect(await covered(db, 3650, FIXTURE_NOW)).toBe(true);
    const expected = await computed(db, params, FIXTURE_NOW);
    expect(expected.length).toBeGreaterThan(0);
    expect(await mostTraded(db, params, FIXTURE_NOW)).toEqual(expected);
    await refreshStoredTopTickers(db, { now: FIXTURE_NOW, force: true });
    expect(await covered(db, 365, FIXTURE_NOW)).toBe(true);
  });

  it('a new trade, an amendment, a quality flag and a deletion each make the rankings stale', async () => {
    const params = { days: 90, limit: 1000 };
    const before = await mostTraded(db, params, FIXTURE_NOW);
    const original = await db
      .selectFrom('trades')
      .selectAll()
      .where('superseded_by', 'is', null)
      .where('quality_excluded', '=', 0)
      .where('disclosure_date', '>=', '2026-05-01')
      .where('ticker', '<>', 'N/A')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const { id: originalId, ...copy } = original;
    // CONSTRUCTED: a trade of a ticker nobody traded, disclosed yesterday.
    const { id: added } = await db
      .insertInto('trades')
      .values({
        ...copy,
        source_key: `${copy.source_key}#constructed-top`,
        ticker: 'ZZTOP',
        disclosure_date: '2026-05-31',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await covered(db, 90, FIXTURE_NOW)).toBe(false);
    // Stale: computed meanwhile, so the new trade is in the answer already.
    const withTrade = await mostTraded(db, params, FIXTURE_NOW);
    expect(withTrade).toEqual(await computed(db, params, FIXTURE_NOW));
    expect(withTrade.some((row) => row.ticker === 'ZZTOP')).toBe(true);
    expect((await refreshStoredTopTickers(db, { now: FIXTURE_NOW })).rebuilt).toBe(true);
    expect(await covered(db, 90, FIXTURE_NOW)).toBe(true);
    expect(await mostTraded(db, params, FIXTURE_NOW)).toEqual(withTrade);

    // Each of these takes it out of the ranking again, through the trade's row alone.
    const changes: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'superseded',
        () => db.updateTable('trades').set({ superseded_by: originalId }).where('id', '=', added).execute(),
        () => db.updateTable('trades').set({ superseded_by: null }).where('id', '=', added).execute(),
      ],
      [
        'flagged out',
        () => db.updateTable('trades').set({ quality_excluded: 1 }).where('id', '=', added).execute(),
        () => db.updateTable('trades').set({ quality_excluded: 0 }).where('id', '=', added).execute(),
      ],
      [
        'disclosed before the window',
        () =>
          db.updateTable('trades').set({ disclosure_date: '2020-01-01' }).where('id', '=', added).execute(),
        () =>
          db.updateTable('trades').set({ disclosure_date: '2026-05-31' }).where('id', '=', added).execute(),
      ],
    ];
    for (const [name, change, undo] of changes) {
      await change();
      expect(await covered(db, 90, FIXTURE_NOW), name).toBe(false);
      expect(await mostTraded(db, params, FIXTURE_NOW), name).toEqual(before);
      await refreshStoredTopTickers(db, { now: FIXTURE_NOW });
      expect(await covered(db, 90, FIXTURE_NOW), name).toBe(true);
      expect(await mostTraded(db, params, FIXTURE_NOW), name).toEqual(before);
      await undo();
      await refreshStoredTopTickers(db, { now: FIXTURE_NOW });
      expect(await mostTraded(db, params, FIXTURE_NOW), name).toEqual(withTrade);
    }

    // A column the ranking does not read changes nothing.
    await db.updateTable('trades').set({ comment: 'constructed' }).where('id', '=', added).execute();
    expect(await covered(db, 90, FIXTURE_NOW)).toBe(true);

    // Deleted, it is gone from the answer; the stored answer is the one before it was added.
    await db.deleteFrom('trades').where('id', '=', added).execute();
    expect(await covered(db, 90, FIXTURE_NOW)).toBe(false);
    expect(await mostTraded(db, params, FIXTURE_NOW)).toEqual(before);
    await refreshStoredTopTickers(db, { now: FIXTURE_NOW });
    expect(await mostTraded(db, params, FIXTURE_NOW)).toEqual(before);
  });

  it('a day past the next is computed until the rebuild of that day', async () => {
    const later = new Date(FIXTURE_NOW.getTime() + 2 * DAY_MS);
    const params = { days: 3650, limit: 25, chamber: 'house' };
    expect(await covered(db, 3650, later)).toBe(false);
    const expected = await computed(db, params, later);
    expect(await mostTraded(db, params, later)).toEqual(expected);
    expect((await refreshStoredTopTickers(db, { now: later })).rebuilt).toBe(true);
    expect(await covered(db, 3650, later)).toBe(true);
    expect(await covered(db, 3650, FIXTURE_NOW)).toBe(false);
    expect(await mostTraded(db, params, later)).toEqual(expected);
  });
});
