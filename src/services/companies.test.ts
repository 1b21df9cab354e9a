// The members' trades section of GET /companies/{ticker} on the real-data fixture, against every
// trade of the ticker read whole: the totals, first and last dates and the `recent` list are what
// the dossier built from those rows before the database summed them per member (the per-member sums
// themselves: storage/repositories/dossier-trades.test.ts). Runs on SQLite and, with
// DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tradeSummary } from '../resources/links.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { linkTradesOfRange } from '../test-support/link-trades.js';
import { companyDossier } from './companies.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)("the dossier's members' trades on the real data", () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  it('totals, dates, members and recent trades equal those of every trade read whole', async () => {
    for (const ticker of ['AAPL', 'MSFT', 'NVDA', 'LMT', 'KO', 'AAON']) {
      const trades = await linkTradesOfRange(store.db, {
        from: '0000-01-01',
        to: '9999-12-31',
        tickers: [ticker],
      });
      const { member_trades: section } = await companyDossier(store.db, ticker);
      const net = section.members.reduce((total, member) => total + member.net_amount_mid, 0);
      expect(section, ticker).toEqual({
        trade_count: trades.length,
        member_count: new Set(trades.map((trade) => trade.politician_id)).size,
        buys: trades.filter((trade) => trade.trade_action === 'buy').length,
        sells: trades.filter((trade) => trade.trade_action === 'sell').length,
        net_amount_mid: net,
        net_direction: net > 0 ? 'buy' : net < 0 ? 'sell' : 'even',
        first_trade_date: trades[0]?.transaction_date ?? null,
        last_trade_date: trades.at(-1)?.transaction_date ?? null,
        members: section.members,
        recent: trades.slice(-25).reverse().map(tradeSummary),
      });
      expect(section.members.flatMap((member) => member.trade_ids).sort((a, b) => a - b)).toEqual(
        trades.map((trade) => trade.id).sort((a, b) => a - b),
      );
      for (const [index, member] of section.members.entries()) {
        const next = section.members[index + 1];
        if (next)
          expect(
            member.trade_count > next.trade_count ||
              (member.trade_count === next.trade_count && member.name.localeCompare(next.name) <= 0),
          ).toBe(true);
      }
    }
  });
});
