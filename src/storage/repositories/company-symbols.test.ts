// The company symbol of a trade in SQL (and read in code) equals the symbol-change table's answer for its ticker and
// date, and the members ranked by their trades in a company count the trades filed under its former
// symbol. On the real-data fixture (SQLite and, with DCLEDGER_TEST_DATABASE_URL, PostgreSQL).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { currentSymbolOf, linkedSymbols, SYMBOL_CHANGES } from '../../domain/symbol-changes.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { companySymbolOfTrade, companySymbolOn } from './company-symbols.js';
import { membersByTrades } from './search-index.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)('company symbols of the real trades', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  it("reads every trade filed under a symbol of the table as the table does on the trade's date", async () => {
    const symbols = [...new Set(SYMBOL_CHANGES.flatMap((change) => [change.old, change.new]))];
    const rows = await store.db
      .selectFrom('trades as t')
      .select([
        't.ticker',
        't.transaction_date',
        companySymbolOfTrade('t.ticker', 't.transaction_date').as('company'),
      ])
      .where('t.ticker', 'in', symbols)
      .execute();
    expect(rows.length).toBeGreaterThan(300);
    for (const row of rows) {
      expect(row.company).toBe(currentSymbolOf(row.ticker, row.transaction_date).symbol);
      expect(companySymbolOn(row.ticker, row.transaction_date)).toBe(row.company);
    }
    const companies = new Set(rows.map((row) => `${row.ticker}>${row.company}`));
    // FB-filed trades are Meta's; BBT of 2015 is Truist's and Beacon Financial's BBT of 2025 its own.
    for (const pair of ['FB>META', 'UTX>RTX', 'BBT>TFC', 'BBT>BBT', 'WTW>WW', 'WTW>WTW'])
      expect(companies.has(pair)).toBe(true);
  });

  it('ranks the members who traded META by their trades in the company, FB-filed ones included', async () => {
    const counted = async (tickers: readonly string[]) => {
      const row = await store.db
        .selectFrom('trades')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ticker', 'in', [...tickers])
        .where('superseded_by', 'is', null)
        .where('quality_excluded', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const members = await membersByTrades(store.db, { tickers: ['META'] }, 1_000);
    const total = members.reduce((sum, member) => sum + member.trade_count, 0);
    expect(total).toBe(await counted(linkedSymbols('META')));
    expect(total).toBeGreaterThan(await counted(['META']));
  });
});
