// ticker_trade_descriptions (migration 0027-endpoint-indexes) against the aggregate over the
// trades it must always equal, on the real-data fixture and after every kind of trade write
// (new trade with and without a description, ticker and description changes, supersession and its
// undoing, delete); and GET /search's candidates read from it (and from politician_trade_totals)
// against the same candidates grouped from the trades themselves, as the search did before.
// Runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { containsInsensitive, startsWithInsensitive } from '../dialect.js';
import type { Database } from '../schema.js';
import { supersedeTrade } from './report-trades.js';
import { politicianCandidates, tickerCandidates, tradeCountsFor } from './search.js';

const fixture = inject('fixture');

interface Pair {
  ticker: string;
  asset_description: string | null;
  trade_count: number;
}

const byKey = (a: Pair, b: Pair) =>
  a.ticker < b.ticker
    ? -1
    : a.ticker > b.ticker
      ? 1
      : String(a.asset_description) < String(b.asset_description)
        ? -1
        : String(a.asset_description) > String(b.asset_description)
          ? 1
          : 0;

async function storedPairs(db: Kysely<Database>): Promise<Pair[]> {
  const rows = await db
    .selectFrom('ticker_trade_descriptions')
    .select(['ticker', 'described', 'asset_description', 'trade_count'])
    .execute();
  return rows
    .map((row) => ({
      ticker: row.ticker,
      asset_description: Number(row.described) === 1 ? row.asset_description : null,
      trade_count: Number(row.trade_count),
    }))
    .sort(byKey);
}

async function aggregatePairs(db: Kysely<Database>): Promise<Pair[]> {
  const rows = await db
    .selectFrom('trades')
    .select((eb) => ['ticker', 'asset_description', eb.fn.countAll<number>().as('n')])
    .where('superseded_by', 'is', null)
    .groupBy(['ticker', 'asset_description'])
    .execute();
  return rows
    .map((row) => ({
      ticker: row.ticker,
      asset_description: row.asset_description,
      trade_count: Number(row.n),
    }))
    .sort(byKey);
}

/** The search's ticker groups as they were computed before the table: over every current trade. */
async function tradeGroups(db: Kysely<Database>, where: 'ticker' | 'asset_description', needle: string) {
  const rows = await db
    .selectFrom('trades')
    .select((eb) => [
      'ticker',
      eb.fn.countAll<number>().as('n'),
      eb.fn.max('asset_description').as('description'),
    ])
    .where('superseded_by', 'is', null)
    .where('ticker', '<>', 'N/A')
    .where(
      where === 'ticker'
        ? startsWithInsensitive('ticker', needle)
        : containsInsensitive('asset_description', needle),
    )
    .groupBy('ticker')
    .execute();
  return normalizedGroups(rows);
}

const normalizedGroups = (rows: { ticker: string; n: unknown; description: string | null }[]) =>
  rows
    .map((row) => ({ ticker: row.ticker, n: Number(row.n), description: row.description ?? null }))
    .sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));

/** The members matching a name as the search found them before: trade counts over every trade. */
async function memberMatches(db: Kysely<Database>, needle: string) {
  const rows = await db
    .selectFrom('politicians as p')
    .leftJoin(
      db
        .selectFrom('trades')
        .select((eb) => ['politician_id', eb.fn.countAll<number>().as('n')])
        .where('superseded_by', 'is', null)
        .groupBy('politician_id')
        .as('s'),
      's.politician_id',
      'p.id',
    )
    .select(['p.id', sql<number>`coalesce(s.n, 0)`.as('trade_count')])
    .where((eb) =>
      eb.or([
        containsInsensitive('p.name', needle),
        containsInsensitive('p.slug', needle.replace(/\s+/g, '-')),
      ]),
    )
    .execute();
  return rows
    .map((row) => ({ id: row.id, trade_count: Number(row.trade_count) }))
    .sort((a, b) => a.id - b.id);
}

describe.skipIf(fixture === null)('ticker_trade_descriptions', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  const expectParity = async () => {
    const stored = await storedPairs(store.db);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).toEqual(await aggregatePairs(store.db));
  };

  // Needles of every kind the search meets: a ticker, a company word, a member's name, a common
  // fragment, a single letter, a LIKE wildcard (matched literally).
  const NEEDLES = [
    'nvda',
    'apple',
    'micro',
    'pelosi',
    'bank',
    'inc',
    'energy',
    'a',
    'corp',
    '%',
    '_',
    'é',
    'Ré',
  ];

  it('equals the aggregate over the trades after the real ingest', async () => {
    await expectParity();
  });

  it('gives the search the candidates grouping the trades gave, with the same counts and descriptions', async () => {
    let compared = 0;
    for (const needle of NEEDLES) {
      const { traded, byDescription, companies } = await tickerCandidates(store.db, needle);
      // Under the candidate cap, the whole set must match (above it, which equal counts are cut is open).
      if (traded.length < 200) {
        expect(normalizedGroups(traded), `traded ${needle}`).toEqual(
          await tradeGroups(store.db, 'ticker', needle),
        );
        compared += traded.length;
      }
      if (byDescription.length < 200) {
        expect(normalizedGroups(byDescription), `described ${needle}`).toEqual(
          await tradeGroups(store.db, 'asset_description', needle),
        );
        compared += byDescription.length;
      }
      const counts = await tradeCountsFor(
        store.db,
        companies.map((row) => row.ticker),
      );
      for (const row of companies) {
        const n = await store.db
          .selectFrom('trades')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('superseded_by', 'is', null)
          .where('ticker', '=', row.ticker)
          .executeTakeFirstOrThrow();
        expect(counts.get(row.ticker) ?? 0, `count of ${row.ticker}`).toBe(Number(n.n));
      }
      const members = await politicianCandidates(store.db, needle);
      if (members.length < 200) {
        expect(
          members
            .map((row) => ({ id: row.id, trade_count: Number(row.trade_count) }))
            .sort((a, b) => a.id - b.id),
          `members ${needle}`,
        ).toEqual(await memberMatches(store.db, needle));
        compared += members.length;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('follows new trades, ticker and description changes, supersession and deletes', async () => {
    const template = await store.db
      .selectFrom('trades')
      .selectAll()
      .where('superseded_by', 'is', null)
      .where('ticker', '<>', 'N/A')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const { id: _id, ...fields } = template;
    const insert = async (suffix: string, values: { ticker: string; asset_description: string | null }) =>
      (
        await store.db
          .insertInto('trades')
          .values({
            ...fields,
            ...values,
            source_key: `${template.source_key}#${suffix}`,
            superseded_by: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const plain = await insert('pairs-1', {
      ticker: 'ZZZT',
      asset_description: 'Constructed Test Holdings Inc',
    });
    const twin = await insert('pairs-2', {
      ticker: 'ZZZT',
      asset_description: 'Constructed Test Holdings Inc',
    });
    const bare = await insert('pairs-3', { ticker: 'ZZZT', asset_description: null });
    await expectParity();
    expect((await storedPairs(store.db)).filter((pair) => pair.ticker === 'ZZZT')).toEqual([
      { ticker: 'ZZZT', asset_description: 'Constructed Test Holdings Inc', trade_count: 2 },
      { ticker: 'ZZZT', asset_description: null, trade_count: 1 },
    ]);
    // A ticker-only group keeps a null description, as max() over the trades answers.
    const bareGroup = (await tickerCandidates(store.db, 'zzzt')).traded;
    expect(normalizedGroups(bareGroup)).toEqual([
      { ticker: 'ZZZT', n: 3, description: 'Constructed Test Holdings Inc' },
    ]);

    await store.db.updateTable('trades').set({ ticker: 'ZZZU' }).where('id', '=', twin).execute();
    await store.db
      .updateTable('trades')
      .set({ asset_description: 'Now Described Corp' })
      .where('id', '=', bare)
      .execute();
    await store.db
      .updateTable('trades')
      .set({ asset_description: null })
      .where('id', '=', template.id)
      .execute();
    await expectParity();
    await supersedeTrade(store.db, plain, twin, '2026-06-01T00:00:00.000Z');
    await expectParity();
    expect(
      (await storedPairs(store.db)).some(
        (pair) => pair.asset_description === 'Constructed Test Holdings Inc' && pair.ticker === 'ZZZT',
      ),
    ).toBe(false);
    // An update that changes nothing the table counts leaves it alone; undoing the supersession counts again.
    await store.db.updateTable('trades').set({ comment: 'constructed' }).where('id', '=', twin).execute();
    await store.db.updateTable('trades').set({ superseded_by: null }).where('id', '=', plain).execute();
    await expectParity();
    for (const id of [plain, twin, bare]) await store.db.deleteFrom('trades').where('id', '=', id).execute();
    await expectParity();
    expect(
      (await storedPairs(store.db)).some((pair) => pair.ticker === 'ZZZT' || pair.ticker === 'ZZZU'),
    ).toBe(false);
  });

  it('finds renamed, new and removed members and companies as the scan does (trigram indexes kept on write)', async () => {
    const ids = async (needle: string) => (await politicianCandidates(store.db, needle)).map((row) => row.id);
    const tickers = async (needle: string) =>
      (await tickerCandidates(store.db, needle)).companies.map((row) => row.ticker).sort();
    // Constructed rows: a member and a company no real record is named like.
    const member = await store.db
      .insertInto('politicians')
      .values({
        slug: 'constructed-qwxz-member',
        name: 'Constructed Qwxz Member',
        chamber: 'House',
        in_office: 0,
        origin: 'test',
        created_at: '2026-06-01T00:00:00.000Z',
        updated_at: '2026-06-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await ids('qwxz')).toEqual([member.id]);
    expect(await ids('QWXZ-MEM')).toEqual([member.id]);
    await store.db
      .updateTable('politicians')
      .set({ name: 'Renamed Vbnj Member', slug: 'renamed-vbnj-member' })
      .where('id', '=', member.id)
      .execute();
    expect(await ids('qwxz')).toEqual([]);
    expect(await ids('vbnj')).toEqual([member.id]);
    await store.db.deleteFrom('politicians').where('id', '=', member.id).execute();
    expect(await ids('vbnj')).toEqual([]);

    await store.db
      .insertInto('companies')
      .values({
        ticker: 'QWXZ',
        name: 'Constructed Xqzjk Industries',
        updated_at: '2026-06-01T00:00:00.000Z',
      })
      .execute();
    expect(await tickers('xqzjk ind')).toEqual(['QWXZ']);
    expect(await tickers('qwx')).toEqual(['QWXZ']);
    await store.db
      .updateTable('companies')
      .set({ name: 'Renamed Jqxvw Systems' })
      .where('ticker', '=', 'QWXZ')
      .execute();
    expect(await tickers('xqzjk')).toEqual([]);
    expect(await tickers('jqxvw sys')).toEqual(['QWXZ']);
    await store.db.deleteFrom('companies').where('ticker', '=', 'QWXZ').execute();
    expect(await tickers('jqxvw')).toEqual([]);
    expect(await tickers('qwx')).toEqual([]);
  });
});
