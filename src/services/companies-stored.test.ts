// GET /companies/{ticker} from its stored answers (migration 0097-stored-dossiers) on the real data,
// on whichever database the suite runs on (SQLite by default, PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL): the stored text of many tickers is byte for byte the answer the
// route builds and serializes now; the stored rows are what is read while current; a write to any
// record a dossier is built from makes the dossiers of the tickers it touches stale, or every one
// when no ticker owns the record (answers built meanwhile), and the rebuild follows the write: of
// the touched tickers only, or of all.

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
  await db.deleteFrom('dossier_ticker_changes').execute();
}

/** The tickers whose stored dossiers wait for a rebuild, in order. */
async function pendingTickers(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('dossier_ticker_changes').select('ticker').execute();
  return [...new Set(rows.map((row) => row.ticker))].sort();
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
    tickers = await tradedTickers(db);
    expect(tickers.length).toBeGreaterThan(1000);
    if (ctx.store.dialect === 'sqlite') {
      const report = await refreshStoredDossiers(db, { now: FIXTURE_NOW, force: true });
      expect(report.rebuilt).toBe(true);
      expect(report.companies).toBe(tickers.length);
    } else {
      // The fixture's enrichment built every dossier on this database. Forcing a whole rebuild
      // again proves the `force` flag, which is no database's (the SQLite run proves it), and
      // costs a whole rebuild, which on PostgreSQL is a round trip per query of every ticker's
      // dossier; the whole rebuilds below (a seat changed, then restored) run on this database.
      const stored = await db.selectFrom('company_dossiers').select('ticker').orderBy('ticker').execute();
      expect(stored.map((row) => row.ticker)).toEqual(tickers);
    }
  }, 300_000);
  afterAll(async () => ctx?.close());

  it('are current after the rebuild, and a second refresh does nothing', async () => {
    expect(await current(db)).toBe(true);
    expect((await refreshStoredDossiers(db, { now: FIXTURE_NOW })).rebuilt).toBe(false);
  });

  it('the route answers, byte for byte, what it builds and serializes without them, for many tickers', async () => {
    // Every 12th ticker on SQLite. On PostgreSQL every 48th (some 60 tickers, A to Z, and the named ones):
    // the answer's text is built by the same code on both databases, what differs is the SQL each
    // dossier runs, the same for every ticker, and each dossier costs a round trip per query there.
    const every = ctx.store.dialect === 'sqlite' ? 12 : 48;
    const sample = [
      ...new Set([
        ...tickers.filter((_, index) => index % every === 0),
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
    await db
      .updateTable('company_dossiers')
      .set({ head: sql<string>`replace(head, '"list_limit":26', '"list_limit":25')` })
      .where('ticker', '=', 'LMT')
      .execute();
    expect(await answer('LMT')).toEqual(before);
  });

  it('a write to a table no ticker owns marks every dossier stale; a column it does not read does not', async () => {
    const whole = [
      'politicians',
      'politician_fec_ids',
      'committee_seats',
      'committees',
      'bills',
      'bill_subjects',
      'bill_committee_activities',
    ] as const;
    const touched: string[] = [];
    for (const table of whole) {
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
      // Members: a column the dossier shows, changed and restored (their other columns do not
      // count). Every other table: any write, here its first column written back as it is.
      if (table === 'politicians') {
        await update('party', 'X');
        await update('party', row.party);
      } else await update(keyColumn, keyValue);
      expect(await current(db), table).toBe(false);
      expect(await storedCompanyDossier(db, 'LMT'), table).toBeUndefined();
      touched.push(table);
      await forgetChanges(db);
    }
    expect(touched).toEqual(
      expect.arrayContaining(['politicians', 'committee_seats', 'committees', 'bills']),
    );
    // What enrich writes to every trade and member, and the dossier never shows.
    const trade = await db
      .selectFrom('trades')
      .select(['id', 'alpha_30d'])
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable('trades').set({ alpha_30d: 0.5 }).where('id', '=', trade.id).execute();
    await db.updateTable('trades').set({ alpha_30d: trade.alpha_30d }).where('id', '=', trade.id).execute();
    const member = await db
      .selectFrom('politicians')
      .select(['id', 'updated_at'])
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable('politicians').set({ updated_at: 'x' }).where('id', '=', member.id).execute();
    await db
      .updateTable('politicians')
      .set({ updated_at: member.updated_at })
      .where('id', '=', member.id)
      .execute();
    expect(await current(db)).toBe(true);
    expect(await pendingTickers(db)).toEqual([]);
  });

  it('a write to a record of a ticker marks that ticker stale only', async () => {
    const trade = await db
      .selectFrom('trades')
      .select(['id', 'ticker', 'amount_high'])
      .where('superseded_by', 'is', null)
      .where('ticker', '=', 'AAPL')
      .limit(1)
      .executeTakeFirstOrThrow();
    const company = await db
      .selectFrom('companies')
      .select(['ticker', 'name'])
      .where('ticker', '=', 'LMT')
      .executeTakeFirstOrThrow();
    const bar = await db
      .selectFrom('price_bars')
      .selectAll()
      .where('symbol', '=', 'KO')
      .orderBy('date', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    type Write = [string, () => Promise<unknown>, readonly string[]];
    const writes: Write[] = [
      [
        'a trade',
        () => db.updateTable('trades').set({ amount_high: 1 }).where('id', '=', trade.id).execute(),
        [trade.ticker],
      ],
      [
        "a trade's ticker",
        () => db.updateTable('trades').set({ ticker: 'MSFT' }).where('id', '=', trade.id).execute(),
        [trade.ticker, 'MSFT'],
      ],
      [
        'and back',
        () =>
          db
            .updateTable('trades')
            .set({ ticker: trade.ticker, amount_high: trade.amount_high })
            .where('id', '=', trade.id)
            .execute(),
        [trade.ticker, 'MSFT'],
      ],
      [
        'the directory',
        () => db.updateTable('companies').set({ name: company.name }).where('ticker', '=', 'LMT').execute(),
        ['LMT'],
      ],
      // A price bar counts only for a ticker with a 13D/G statement (its value at the latest close).
      [
        'a price bar of a ticker without 13D/G statements',
        () =>
          db
            .updateTable('price_bars')
            .set({ close: bar.close })
            .where('symbol', '=', bar.symbol)
            .where('source', '=', bar.source)
            .where('date', '=', bar.date)
            .execute(),
        [],
      ],
    ];
    // The records of companies: the first row of each table given the ticker KO, and its ticker
    // back (both touch KO and the row's own ticker, if any).
    const records = [
      'company_links',
      'insider_trades',
      'whale_positions',
      'lobbying_filings',
      'contract_awards',
    ] as const;
    const covered: string[] = [];
    for (const table of records) {
      const row = await db
        .selectFrom(table)
        .select(['id', 'ticker'])
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      if (!row) continue;
      covered.push(table);
      const touched = [...new Set([row.ticker ?? 'KO', 'KO'])];
      const setTicker = (ticker: string | null) => () =>
        db.updateTable(table).set({ ticker }).where('id', '=', row.id).execute();
      writes.push([table, setTicker('KO'), touched]);
      if (table === 'whale_positions')
        writes.push(
          [
            'a price bar of its ticker',
            () =>
              db
                .insertInto('price_bars')
                .values({ ...bar, date: addDays(bar.date, 1) })
                .execute(),
            ['KO'],
          ],
          [
            'and back',
            () =>
              db
                .deleteFrom('price_bars')
                .where('symbol', '=', bar.symbol)
                .where('source', '=', bar.source)
                .where('date', '=', addDays(bar.date, 1))
                .execute(),
            ['KO'],
          ],
        );
      if (table === 'lobbying_filings')
        writes.push(
          [
            'its issue codes',
            () => db.insertInto('lobbying_issues').values({ filing_id: row.id, code: 'ZZZ' }).execute(),
            ['KO'],
          ],
          [
            'and back',
            () =>
              db
                .deleteFrom('lobbying_issues')
                .where('filing_id', '=', row.id)
                .where('code', '=', 'ZZZ')
                .execute(),
            ['KO'],
          ],
        );
      writes.push([`${table} back`, setTicker(row.ticker), touched]);
    }
    // A PAC whose connected organization links to tickers, and one of its contributions.
    const pac = await db
      .selectFrom('fec_committee_contributions as x')
      .innerJoin('fec_committees as g', 'g.id', 'x.committee_id')
      .innerJoin('company_links as l', (join) =>
        join
          .onRef('l.identifier_value', '=', 'g.connected_org_key')
          .on('l.identifier_kind', '=', 'name')
          .on('l.ticker', 'is not', null),
      )
      .select(['x.id as contribution', 'x.amount', 'g.id', 'g.name', 'g.connected_org_key'])
      .limit(1)
      .executeTakeFirst();
    if (pac) {
      covered.push('fec_committee_contributions');
      const pacTickers = (
        await db
          .selectFrom('company_links')
          .select('ticker')
          .distinct()
          .where('identifier_kind', '=', 'name')
          .where('identifier_value', '=', pac.connected_org_key ?? '')
          .where('ticker', 'is not', null)
          .execute()
      ).flatMap((row) => (row.ticker ? [row.ticker] : []));
      writes.push(
        [
          'a PAC contribution',
          () =>
            db
              .updateTable('fec_committee_contributions')
              .set({ amount: pac.amount })
              .where('id', '=', pac.contribution)
              .execute(),
          pacTickers,
        ],
        [
          'a PAC',
          () => db.updateTable('fec_committees').set({ name: pac.name }).where('id', '=', pac.id).execute(),
          pacTickers,
        ],
      );
    }
    expect(covered).toEqual(expect.arrayContaining(['company_links', 'lobbying_filings']));
    const untouched = 'NVDA';
    expect(await storedCompanyDossier(db, untouched)).toBeDefined();
    for (const [name, write, expected] of writes) {
      expect(await pendingTickers(db), name).toEqual([]);
      await write();
      expect(await pendingTickers(db), name).toEqual([...expected].sort());
      expect(await current(db), name).toBe(true);
      for (const ticker of expected)
        if (/^[A-Z]{1,5}$/.test(ticker)) expect(await storedCompanyDossier(db, ticker), name).toBeUndefined();
      if (!expected.includes(untouched))
        expect(await storedCompanyDossier(db, untouched), name).toBeDefined();
      await forgetChanges(db);
    }
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
    // The trade is LMT's alone: LMT's dossier is rebuilt; the seat is on committees overseeing
    // other companies too: every dossier is.
    const rebuilds = [
      { rebuilt: true, whole: false, companies: 1 },
      { rebuilt: true, whole: true, companies: tickers.length },
    ];
    let previous = before.body;
    for (const [index, [name, change]] of changes.entries()) {
      await change();
      expect(await storedCompanyDossier(db, 'LMT'), name).toBeUndefined();
      const changed = await answer('LMT');
      expect(changed.body, name).not.toBe(previous);
      expect(JSON.parse(changed.body), name).toEqual(
        JSON.parse(JSON.stringify(await companyDossier(db, 'LMT'))),
      );
      expect(await refreshStoredDossiers(db, { now: FIXTURE_NOW }), name).toMatchObject(
        rebuilds[index] ?? {},
      );
      expect(await storedCompanyDossier(db, 'LMT'), name).toBe(changed.body);
      expect(await answer('LMT'), name).toEqual(changed);
      previous = changed.body;
    }
    // Both undone: built meanwhile as it was, then stored as it was.
    for (const [, , undo] of changes) await undo();
    expect(await current(db)).toBe(false);
    expect(await answer('LMT')).toEqual(before);
    expect(await refreshStoredDossiers(db, { now: FIXTURE_NOW })).toMatchObject({ whole: true });
    expect(await storedCompanyDossier(db, 'LMT')).toBe(before.body);
  }, 600_000);

  it('after changes of tickers the rebuild stores theirs only, each the built answer, and drops a ticker no longer traded', async () => {
    const counts = await db
      .selectFrom('trades')
      .select(['ticker', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('superseded_by', 'is', null)
      .where('ticker', '<>', 'N/A')
      .groupBy('ticker')
      .orderBy('ticker')
      .execute();
    // Tickers the route answers; the ones changed each have a trade no other trade supersedes (it
    // can be deleted).
    const plain = counts.filter((row) => /^[A-Z]{2,5}$/.test(row.ticker));
    const untouched = plain.filter((_, index) => index % 200 === 0).map((row) => row.ticker);
    const deletable = (ticker: string) =>
      db
        .selectFrom('trades')
        .selectAll()
        .where('ticker', '=', ticker)
        .where('superseded_by', 'is', null)
        .where(
          'id',
          'not in',
          db.selectFrom('trades').select('superseded_by').where('superseded_by', 'is not', null),
        )
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
    const chosen = new Set<string>();
    const pick = async (wanted: (trades: number) => boolean) => {
      for (const row of plain) {
        if (!wanted(Number(row.n)) || untouched.includes(row.ticker) || chosen.has(row.ticker)) continue;
        const trade = await deletable(row.ticker);
        if (!trade) continue;
        chosen.add(row.ticker);
        return trade;
      }
      throw new Error('no ticker to change');
    };
    const movedTrade = await pick((n) => n >= 2);
    const moved = movedTrade.ticker;
    const movedTo = (await pick((n) => n >= 2)).ticker;
    const cutTrade = await pick((n) => n >= 2);
    const cut = cutTrade.ticker;
    const goneTrade = await pick((n) => n === 1);
    const gone = goneTrade.ticker;
    const fresh = (
      await db
        .selectFrom('companies')
        .select('ticker')
        .where('ticker', 'not in', db.selectFrom('trades').select('ticker'))
        .where('sector', 'is not', null)
        .orderBy('ticker')
        .execute()
    ).find((row) => /^[A-Z]{2,5}$/.test(row.ticker))?.ticker;
    if (!fresh) throw new Error('no untraded company');
    const textBefore = new Map<string, string | undefined>();
    for (const ticker of [moved, movedTo, cut])
      textBefore.set(ticker, await storedCompanyDossier(db, ticker));
    const storedBefore = await db.selectFrom('company_dossiers').select('ticker').execute();

    await db.updateTable('trades').set({ ticker: movedTo }).where('id', '=', movedTrade.id).execute();
    await db.deleteFrom('trades').where('id', '=', cutTrade.id).execute();
    await db.deleteFrom('trades').where('id', '=', goneTrade.id).execute();
    await db
      .insertInto('trades')
      .values({
        ...movedTrade,
        id: undefined,
        ticker: fresh,
        source_key: `${movedTrade.source_key}-fresh`,
      } as never)
      .execute();
    const changed = [moved, movedTo, cut, gone, fresh].sort();
    expect(await pendingTickers(db)).toEqual(changed);
    // The others are read from the stored text meanwhile; the changed ones are built.
    for (const ticker of untouched) expect(await storedCompanyDossier(db, ticker), ticker).toBeDefined();
    for (const ticker of changed) expect(await storedCompanyDossier(db, ticker), ticker).toBeUndefined();

    expect(await refreshStoredDossiers(db, { now: FIXTURE_NOW })).toEqual({
      rebuilt: true,
      whole: false,
      companies: 4,
      stored: storedBefore.length,
    });
    expect(await pendingTickers(db)).toEqual([]);
    const stored = (await db.selectFrom('company_dossiers').select('ticker').orderBy('ticker').execute()).map(
      (row) => row.ticker,
    );
    expect(stored).toEqual(await tradedTickers(db));
    expect(stored).toContain(fresh);
    expect(stored).not.toContain(gone);
    // Every stored committee set is some dossier's, and every dossier's set is stored.
    const sets = await db.selectFrom('dossier_overseers').select('overseers_key').execute();
    const used = await db.selectFrom('company_dossiers').select('overseers_key').distinct().execute();
    expect(sets.map((row) => row.overseers_key).sort()).toEqual(used.map((row) => row.overseers_key).sort());
    for (const ticker of [...untouched, moved, movedTo, cut, fresh]) {
      const text = await storedCompanyDossier(db, ticker);
      expect(text, ticker).toBe(JSON.stringify(await companyDossier(db, ticker)));
    }
    for (const [ticker, text] of textBefore) {
      expect(text, ticker).toBeDefined();
      expect(await storedCompanyDossier(db, ticker), ticker).not.toBe(text);
    }
    expect(await storedCompanyDossier(db, gone)).toBeUndefined();
  }, 300_000);
});
