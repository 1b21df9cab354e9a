// GET /companies/{ticker} from its stored answers (migration 0097-stored-dossiers) on the real data,
// on whichever database the suite runs on (SQLite by default, PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL): the stored text of many tickers is byte for byte the answer the
// route builds and serializes now; the stored rows are what is read while current; a write to any
// record a dossier is built from makes them stale (answers built meanwhile), and the rebuild
// follows the write.

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshStoredDossiers } from '../analytics/stored-dossiers.js';
import { addDays } from '../domain/dates.js';
import { storedResultCurrent } from '../storage/repositories/stored-analytics.js';
import { tradedTickers } from '../storage/repositories/stored-dossiers.js';
import type { Database } from '../storage/schema.js';
import { type FixtureApp, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { companyDossier, storedCompanyDossier } from './companies.js';

const current = (db: Kysely<Database>) => storedResultCurrent(db, 'dossier');

/** A pending change of the dossiers' scope, as a trigger notes it: the route then builds its answers. */
async function markStale(db: Kysely<Database>): Promise<void> {
  await db.insertInto('analytics_changes').values({ scope: 'dossier' }).execute();
}

/** Forgets the pending changes of the scope, as a rebuild that saw them does, without rebuilding. */
async function forgetChanges(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('analytics_changes').where('scope', '=', 'dossier').execute();
}

describe.skipIf(!realDataAvailable())('stored company dossiers', () => {
  let ctx: FixtureApp;
  let db: Kysely<Database>;
  let tickers: string[];

  async function answer(ticker: string): Promise<{ status: number; body: string }> {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/companies/${encodeURIComponent(ticker)}`,
      headers: { 'dc-api-key': ctx.key },
    });
    return { status: response.statusCode, body: response.body };
  }

  beforeAll(async () => {
    ctx = await openFixtureApp();
    db = ctx.store.db;
    const report = await refreshStoredDossiers(db, { now: FIXTURE_NOW, force: true });
    expect(report.rebuilt).toBe(true);
    tickers = await tradedTickers(db);
    expect(report.companies).toBe(tickers.length);
    expect(tickers.length).toBeGreaterThan(1000);
  }, 300_000);
  afterAll(async () => ctx?.close());

  it('are current after the rebuild, and a second refresh does nothing', async () => {
    expect(await current(db)).toBe(true);
    expect((await refreshStoredDossiers(db, { now: FIXTURE_NOW })).rebuilt).toBe(false);
  });

  it('the route answers, byte for byte, what it builds and serializes without them, for many tickers', async () => {
    const sample = [
      ...new Set([
        ...tickers.filter((_, index) => index % 12 === 0),
        'LMT',
        'AAPL',
        'NVDA',
        'MSFT',
        'KO',
        'XOM',
        'BA',
        'lmt',
      ]),
    ];
    const stored = new Map<string, { status: number; body: string }>();
    for (const ticker of sample) {
      expect(await storedCompanyDossier(db, ticker), ticker).toBeDefined();
      stored.set(ticker, await answer(ticker));
    }
    await markStale(db);
    try {
      for (const ticker of sample) {
        expect(await storedCompanyDossier(db, ticker), ticker).toBeUndefined();
        const built = await answer(ticker);
        const kept = stored.get(ticker);
        if (built.status === 200) expect(kept, ticker).toEqual(built);
        // A refusal carries its request's id: the status and the detail are compared.
        else
          expect([kept?.status, JSON.parse(kept?.body ?? '{}').detail], ticker).toEqual([
            built.status,
            JSON.parse(built.body).detail,
          ]);
      }
    } finally {
      await forgetChanges(db);
    }
    // A stored ticker the route refuses (an option symbol longer than a ticker) is refused alike.
    const answered = [...stored.values()].filter((response) => response.status === 200);
    expect(answered.length).toBeGreaterThan(sample.length * 0.95);
    // Field by field too, against the service's object.
    const lmt = JSON.parse(stored.get('LMT')?.body ?? 'null');
    expect(lmt).toEqual(JSON.parse(JSON.stringify(await companyDossier(db, 'LMT'))));
    expect(lmt.overseeing_members.length).toBeGreaterThan(10);
    expect(lmt.member_trades.trade_count).toBeGreaterThan(0);
  }, 300_000);

  it('a ticker without trades, an unknown one and one that is no ticker are answered as before', async () => {
    const directoryOnly = await db
      .selectFrom('companies')
      .select('ticker')
      .where('sector', 'is not', null)
      .where('ticker', 'not in', db.selectFrom('trades').select('ticker'))
      .orderBy('ticker')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(await storedCompanyDossier(db, directoryOnly.ticker)).toBeUndefined();
    const built = await answer(directoryOnly.ticker);
    expect(built.status).toBe(200);
    expect(JSON.parse(built.body)).toEqual(
      JSON.parse(JSON.stringify(await companyDossier(db, directoryOnly.ticker))),
    );
    expect((await answer('ZZZZQX')).status).toBe(404);
    expect((await answer('$$')).status).toBe(422);
  });

  it('reads the stored text while it is current', async () => {
    const before = await answer('LMT');
    // Written to the stored table directly: no input changed, so the dossiers stay current.
    await db
      .updateTable('company_dossiers')
      .set({ head: sql<string>`replace(head, '"list_limit":25', '"list_limit":26')` })
      .where('ticker', '=', 'LMT')
      .execute();
    expect(await current(db)).toBe(true);
    expect(JSON.parse((await answer('LMT')).body).parameters.list_limit).toBe(26);
    await refreshStoredDossiers(db, { now: FIXTURE_NOW, force: true });
    expect(await answer('LMT')).toEqual(before);
  });

  it('a write to any table a dossier is built from marks them stale; a column it does not read does not', async () => {
    const watched = [
      'trades',
      'politicians',
      'companies',
      'company_links',
      'insider_trades',
      'whale_positions',
      'price_bars',
      'lobbying_filings',
      'lobbying_issues',
      'contract_awards',
      'fec_committee_contributions',
      'fec_committees',
      'politician_fec_ids',
      'committee_seats',
      'committees',
      'bills',
      'bill_subjects',
      'bill_committee_activities',
    ] as const;
    const touched: string[] = [];
    for (const table of watched) {
      const row = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} limit 1`.execute(db))
        .rows[0];
      if (!row) continue;
      const [keyColumn, keyValue] = Object.entries(row)[0] ?? [];
      if (keyColumn === undefined) continue;
      const update = (column: string, value: unknown) =>
        sql`update ${sql.table(table)} set ${sql.ref(column)} = ${value} where ${sql.ref(keyColumn)} = ${keyValue}`.execute(
          db,
        );
      expect(await current(db), table).toBe(true);
      // Trades and members: a column the dossier shows, changed and restored (their other columns
      // do not count). Every other table: any write, here its first column written back as it is.
      if (table === 'trades') {
        await update('amount_high', 1);
        await update('amount_high', row.amount_high);
      } else if (table === 'politicians') {
        await update('party', 'X');
        await update('party', row.party);
      } else await update(keyColumn, keyValue);
      expect(await current(db), table).toBe(false);
      touched.push(table);
      await forgetChanges(db);
    }
    expect(touched).toEqual(expect.arrayContaining(['trades', 'politicians', 'committee_seats', 'bills']));
    expect(touched.length).toBeGreaterThanOrEqual(12);
    // What enrich writes to every trade and member, and the dossier never shows.
    const trade = await db
      .selectFrom('trades')
      .select(['id', 'alpha_30d'])
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable('trades').set({ alpha_30d: 0.5 }).where('id', '=', trade.id).execute();
    await db.updateTable('trades').set({ alpha_30d: trade.alpha_30d }).where('id', '=', trade.id).execute();
    expect(await current(db)).toBe(true);
  });

  it('after a write the answer follows it at once, and the rebuild stores it', async () => {
    const trade = await db
      .selectFrom('trades')
      .selectAll()
      .where('ticker', '=', 'LMT')
      .where('superseded_by', 'is', null)
      .orderBy('transaction_date', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const before = await answer('LMT');
    // A seat the dossier lists: its first overseeing member's first seat.
    const overseer = JSON.parse(before.body).overseeing_members[0];
    const seat = await db
      .selectFrom('committee_seats as s')
      .innerJoin('politicians as p', 'p.bioguide_id', 's.bioguide_id')
      .select(['s.id', 's.end_date'])
      .where('p.id', '=', overseer.politician_id)
      .where('s.committee_id', '=', overseer.seats[0].seat_committee_id)
      .where('s.end_date', 'is', null)
      .executeTakeFirstOrThrow();
    const changes: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [
        'a new trade',
        () =>
          db
            .insertInto('trades')
            .values({
              ...trade,
              id: undefined,
              source_key: `${trade.source_key}-stored-dossier-test`,
              transaction_date: addDays(trade.transaction_date, 1),
            } as never)
            .execute(),
        () =>
          db
            .deleteFrom('trades')
            .where('source_key', '=', `${trade.source_key}-stored-dossier-test`)
            .execute(),
      ],
      [
        'a seat on an overseeing committee ended',
        () =>
          db
            .updateTable('committee_seats')
            .set({ end_date: '2026-01-01' })
            .where('id', '=', seat.id)
            .execute(),
        () =>
          db
            .updateTable('committee_seats')
            .set({ end_date: seat.end_date })
            .where('id', '=', seat.id)
            .execute(),
      ],
    ];
    let previous = before.body;
    for (const [name, change] of changes) {
      await change();
      expect(await current(db), name).toBe(false);
      const changed = await answer('LMT');
      expect(changed.body, name).not.toBe(previous);
      expect(JSON.parse(changed.body), name).toEqual(
        JSON.parse(JSON.stringify(await companyDossier(db, 'LMT'))),
      );
      expect((await refreshStoredDossiers(db, { now: FIXTURE_NOW })).rebuilt, name).toBe(true);
      expect(await storedCompanyDossier(db, 'LMT'), name).toBe(changed.body);
      expect(await answer('LMT'), name).toEqual(changed);
      previous = changed.body;
    }
    // Both undone: built meanwhile as it was, then stored as it was.
    for (const [, , undo] of changes) await undo();
    expect(await current(db)).toBe(false);
    expect(await answer('LMT')).toEqual(before);
    await refreshStoredDossiers(db, { now: FIXTURE_NOW });
    expect(await storedCompanyDossier(db, 'LMT')).toBe(before.body);
  }, 600_000);
});
