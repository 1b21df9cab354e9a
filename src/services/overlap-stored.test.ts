// GET /overlap from its stored hits (migration 0096-stored-overlap) on the real data, on whichever
// database the suite runs on (SQLite by default, PostgreSQL with DCLEDGER_TEST_DATABASE_URL): for
// windows from 0 to the widest, ranges, link kinds, members, tickers, directions and pages, the
// answer equals, field by field, the matching over the range's trades; a write to a trade or to a
// record the links are made of makes the stored hits stale (answers are computed meanwhile).

import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshStoredOverlap } from '../analytics/stored-analytics.js';
import { addDays, todayUtc } from '../domain/dates.js';
import { storedResultCurrent } from '../storage/repositories/stored-analytics.js';
import type { Database } from '../storage/schema.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import {
  DEFAULT_WINDOW_DAYS,
  findOverlap,
  findOverlapAnswer,
  LINK_KINDS,
  type LinkKind,
  MAX_WINDOW_DAYS,
  type OverlapQuery,
} from './overlap.js';

const TODAY = todayUtc(FIXTURE_NOW);
const DECADE = { from: addDays(TODAY, -3650), to: TODAY };

function query(overrides: Partial<OverlapQuery> = {}): OverlapQuery {
  return {
    ...DECADE,
    windowDays: DEFAULT_WINDOW_DAYS,
    kinds: [...LINK_KINDS],
    limit: 25,
    offset: 0,
    ...overrides,
  };
}

const current = (db: Kysely<Database>) => storedResultCurrent(db, 'overlap');

/** The same day `years` later (29 February: the 28th). */
function yearsLater(date: string, years: number): string {
  const shifted = `${Number(date.slice(0, 4)) + years}${date.slice(4)}`;
  return shifted.endsWith('-02-29') ? shifted.replace(/-29$/, '-28') : shifted;
}

/**
 * CONSTRUCTED: the real lobbying filings (2015-2017) and contract awards (to 2019) predate every
 * committee seat the data records (from 2025), so on the real data alone only campaign links exist.
 * Each filing and award is copied with its date moved into 2025-2026, where the seats are, so the
 * stored hits hold every kind of link over many members and tickers.
 */
async function addRecentRecords(db: Kysely<Database>): Promise<void> {
  const filings = await db
    .selectFrom('lobbying_filings')
    .selectAll()
    .where('ticker', 'is not', null)
    .execute();
  for (const { id, ...filing } of filings) {
    if (!filing.filed_date) continue;
    const years = 2025 - Number(filing.filed_date.slice(0, 4)) + (id % 2);
    const { id: copy } = await db
      .insertInto('lobbying_filings')
      .values({
        ...filing,
        filing_uuid: `${filing.filing_uuid}-constructed`,
        filed_date: yearsLater(filing.filed_date, years),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const codes = await db.selectFrom('lobbying_issues').selectAll().where('filing_id', '=', id).execute();
    if (codes.length > 0)
      await db
        .insertInto('lobbying_issues')
        .values(codes.map((code) => ({ ...code, filing_id: copy })))
        .execute();
  }
  const awards = await db.selectFrom('contract_awards').selectAll().where('ticker', 'is not', null).execute();
  for (const { id, ...award } of awards) {
    if (!award.award_date) continue;
    const years = 2025 - Number(award.award_date.slice(0, 4)) + (id % 2);
    await db
      .insertInto('contract_awards')
      .values({
        ...award,
        award_key: `${award.award_key}-constructed`,
        award_id: `${award.award_id}-constructed`,
        award_date: yearsLater(award.award_date, years),
      })
      .execute();
  }
}

describe.skipIf(!realDataAvailable())('stored overlap hits', () => {
  let ctx: FixtureApp;
  let db: Kysely<Database>;
  /** A member and a ticker with hits, picked from the data so the cases below are never empty. */
  let member: number;
  let ticker: string;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    db = ctx.store.db;
    await addRecentRecords(db);
    const report = await refreshStoredOverlap(db, { now: FIXTURE_NOW, force: true });
    expect(report.rebuilt).toBe(true);
    expect(report.hits).toBeGreaterThan(100);
    const busiest = await db
      .selectFrom('overlap_hits')
      .select(['politician_id', 'ticker'])
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .groupBy(['politician_id', 'ticker'])
      .orderBy('n', 'desc')
      .orderBy('politician_id')
      .orderBy('ticker')
      .limit(1)
      .executeTakeFirstOrThrow();
    member = busiest.politician_id;
    ticker = busiest.ticker;
  }, 120_000);
  afterAll(async () => ctx?.close());

  it('are current after the rebuild, and a second refresh does nothing', async () => {
    expect(await current(db)).toBe(true);
    expect((await refreshStoredOverlap(db, { now: FIXTURE_NOW })).rebuilt).toBe(false);
  });

  const cases: [string, () => Partial<OverlapQuery>][] = [
    ['ten years', () => ({})],
    ['ten years, 1000 rows', () => ({ limit: 1000 })],
    ['ten years, a later page', () => ({ offset: 50, limit: 100 })],
    ['past the last hit', () => ({ offset: 100_000 })],
    ['30 days (the default range)', () => ({ from: addDays(TODAY, -30) })],
    ['one year', () => ({ from: addDays(TODAY, -365) })],
    ['a closed range in the past', () => ({ from: '2018-01-01', to: '2019-12-31', limit: 200 })],
    ['lobbying only', () => ({ kinds: ['lobbying'] as LinkKind[], limit: 200 })],
    ['contracts only', () => ({ kinds: ['contract'] as LinkKind[], limit: 200 })],
    ['campaign only', () => ({ kinds: ['campaign'] as LinkKind[], limit: 200 })],
    ['contracts and campaign', () => ({ kinds: ['contract', 'campaign'] as LinkKind[] })],
    ['the widest window', () => ({ windowDays: MAX_WINDOW_DAYS, limit: 1000 })],
    ['the widest window, a later page', () => ({ windowDays: MAX_WINDOW_DAYS, offset: 300, limit: 100 })],
    ['a window of 30 days', () => ({ windowDays: 30, limit: 1000 })],
    ['a window of 0 days', () => ({ windowDays: 0, limit: 1000 })],
    ['a window of 1000 days, lobbying', () => ({ windowDays: 1000, kinds: ['lobbying'] as LinkKind[] })],
    ['a window of 2000 days, one member', () => ({ windowDays: 2000, politicianIds: [member], limit: 1000 })],
    ['one member', () => ({ politicianIds: [member], limit: 1000 })],
    ['one ticker', () => ({ tickers: [ticker], limit: 1000 })],
    ['a ticker nobody links', () => ({ tickers: ['ZZNONE'] })],
    ['sales', () => ({ actions: ['sell'], limit: 100 })],
    ['the House', () => ({ sources: ['house'], limit: 100 })],
    ['the Senate, buys', () => ({ sources: ['senate'], actions: ['buy'], limit: 100 })],
  ];

  it.each(cases)('stored equals computed: %s', async (_name, overrides) => {
    const asked = query(overrides());
    const expected = await findOverlap(db, asked, { computed: true });
    expect(await current(db)).toBe(true);
    expect(await findOverlap(db, asked)).toEqual(expected);
  });

  it.each(cases)('the database writes the stored page as the same JSON: %s', async (_name, overrides) => {
    const asked = query(overrides());
    const expected = await findOverlap(db, asked, { computed: true });
    const answer = await findOverlapAnswer(db, asked);
    if (!('hitsJson' in answer)) throw new Error('the stored hits are current: the page should be JSON text');
    expect(answer.total).toBe(expected.total);
    expect(answer.rows).toBe(expected.hits.length);
    expect(JSON.parse(answer.hitsJson.toString())).toEqual(JSON.parse(JSON.stringify(expected.hits)));
  });

  it('GET /overlap writes the same text from the stored hits as from the computed ones', async () => {
    const answer = async (url: string) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { 'dc-api-key': ctx.key } });
      expect(response.statusCode, url).toBe(200);
      const { link, 'x-credits-charged': charged } = response.headers;
      // Re-serialized: the database may spell a number otherwise (e.g. 1001.0); key order counts.
      return { body: JSON.stringify(JSON.parse(response.body)), link, charged };
    };
    for (const url of [
      '/overlap?days=3650&window_days=3650&limit=1000',
      '/overlap?days=3650&limit=1000',
      '/overlap?days=3650&window_days=30&link_kind=lobbying,contract&limit=200&offset=5',
      `/overlap?days=3650&politician_id=${member}&link_kind=campaign`,
    ]) {
      const stored = await answer(url);
      const { id } = await db
        .insertInto('analytics_changes')
        .values({ scope: 'overlap' })
        .returning('id')
        .executeTakeFirstOrThrow();
      try {
        expect(await current(db)).toBe(false);
        expect(stored, url).toEqual(await answer(url));
      } finally {
        await db.deleteFrom('analytics_changes').where('id', '=', id).execute();
      }
    }
  });

  it('the cases above are not empty where the data has links', async () => {
    expect((await findOverlap(db, query())).total).toBeGreaterThan(100);
    for (const kinds of LINK_KINDS.map((kind) => [kind])) {
      expect((await findOverlap(db, query({ kinds }))).total).toBeGreaterThan(0);
    }
    expect((await findOverlap(db, query({ politicianIds: [member] }))).total).toBeGreaterThan(0);
  });

  it('GET /overlap answers the stored hits at every window', async () => {
    for (const url of [
      '/overlap?days=3650',
      '/overlap?days=3650&link_kind=campaign&limit=100',
      '/overlap?days=3650&window_days=365&offset=25',
      '/overlap?days=3650&window_days=3650',
      '/overlap?days=3650&window_days=30&limit=200',
      '/overlap?days=3650&window_days=0',
    ]) {
      const params = new URL(url, 'http://localhost').searchParams;
      const { status, body } = await getJson<{ total: number; hits: unknown[] }>(ctx, url);
      expect(status).toBe(200);
      const expected = await findOverlap(
        db,
        query({
          windowDays: Number(params.get('window_days') ?? DEFAULT_WINDOW_DAYS),
          kinds: (params.get('link_kind')?.split(',') as LinkKind[] | undefined) ?? [...LINK_KINDS],
          limit: Number(params.get('limit') ?? 25),
          offset: Number(params.get('offset') ?? 0),
        }),
        { computed: true },
      );
      expect(body.total).toBe(expected.total);
      expect(body.hits).toEqual(JSON.parse(JSON.stringify(expected.hits)));
    }
  });

  it('reads the stored rows while they are current, at every window', async () => {
    const asked = query({ limit: 1 });
    const [first] = (await findOverlap(db, asked)).hits;
    if (!first) throw new Error('no hit');
    // Written to the stored table directly: no input changed, so the hits stay current.
    await db.deleteFrom('overlap_hits').where('trade_id', '=', first.trade.id).execute();
    expect(await current(db)).toBe(true);
    expect((await findOverlap(db, asked)).hits[0]?.trade.id).not.toBe(first.trade.id);
    // A hit at one window is a hit at every wider one: gone from the stored answers there too.
    for (const windowDays of [DEFAULT_WINDOW_DAYS, 2000, MAX_WINDOW_DAYS]) {
      const ids = async (computed: boolean) =>
        (await findOverlap(db, { ...asked, windowDays, limit: 1000 }, { computed })).hits.map(
          (hit) => hit.trade.id,
        );
      expect(await ids(true)).toContain(first.trade.id);
      expect(await ids(false)).not.toContain(first.trade.id);
    }
    await refreshStoredOverlap(db, { now: FIXTURE_NOW, force: true });
    expect((await findOverlap(db, asked)).hits[0]).toEqual(first);
  });

  it('a write to a trade or to any record the links are made of makes the hits stale', async () => {
    const asked = query({ limit: 1000 });
    const filing = await db
      .selectFrom('lobbying_filings')
      .select(['id', 'filed_date'])
      .where('ticker', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const seat = await db
      .selectFrom('committee_seats')
      .select(['id', 'end_date'])
      .limit(1)
      .executeTakeFirstOrThrow();
    const award = await db
      .selectFrom('contract_awards')
      .select(['id', 'amount'])
      .limit(1)
      .executeTakeFirstOrThrow();
    const gift = await db
      .selectFrom('fec_committee_contributions')
      .select(['id', 'amount'])
      .limit(1)
      .executeTakeFirstOrThrow();
    const trade = await db
      .selectFrom('overlap_hits')
      .select(['trade_id', 'transaction_date'])
      .orderBy('trade_id')
      .limit(1)
      .executeTakeFirstOrThrow();
    // Each write, then its undoing: both are changes the stored hits have not seen.
    const changes: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'lobbying filing moved by a year',
        () =>
          db
            .updateTable('lobbying_filings')
            .set({ filed_date: addDays(filing.filed_date ?? TODAY, 400) })
            .where('id', '=', filing.id)
            .execute(),
        () =>
          db
            .updateTable('lobbying_filings')
            .set({ filed_date: filing.filed_date })
            .where('id', '=', filing.id)
            .execute(),
      ],
      [
        'committee seat ended',
        () =>
          db
            .updateTable('committee_seats')
            .set({ end_date: '2000-01-02' })
            .where('id', '=', seat.id)
            .execute(),
        () =>
          db
            .updateTable('committee_seats')
            .set({ end_date: seat.end_date })
            .where('id', '=', seat.id)
            .execute(),
      ],
      [
        'contract amount',
        () => db.updateTable('contract_awards').set({ amount: 1 }).where('id', '=', award.id).execute(),
        () =>
          db
            .updateTable('contract_awards')
            .set({ amount: award.amount })
            .where('id', '=', award.id)
            .execute(),
      ],
      [
        'PAC contribution amount',
        () =>
          db
            .updateTable('fec_committee_contributions')
            .set({ amount: 1 })
            .where('id', '=', gift.id)
            .execute(),
        () =>
          db
            .updateTable('fec_committee_contributions')
            .set({ amount: gift.amount })
            .where('id', '=', gift.id)
            .execute(),
      ],
      [
        'trade date',
        () =>
          db
            .updateTable('trades')
            .set({ transaction_date: addDays(trade.transaction_date, -2000) })
            .where('id', '=', trade.trade_id)
            .execute(),
        () =>
          db
            .updateTable('trades')
            .set({ transaction_date: trade.transaction_date })
            .where('id', '=', trade.trade_id)
            .execute(),
      ],
    ];
    for (const [name, change, undo] of changes) {
      for (const step of [change, undo]) {
        expect(await current(db), name).toBe(true);
        await step();
        expect(await current(db), name).toBe(false);
        // Stale: computed meanwhile, so the answer follows the write at once.
        expect(await findOverlap(db, asked), name).toEqual(await findOverlap(db, asked, { computed: true }));
        expect((await refreshStoredOverlap(db, { now: FIXTURE_NOW })).rebuilt, name).toBe(true);
        expect(await findOverlap(db, asked), name).toEqual(await findOverlap(db, asked, { computed: true }));
      }
    }
  }, 300_000);
});
