// memberTradeTotals (the dossier's members' trades, summed by the database) on the real-data
// fixture, against the rule as the dossier applied it before: every trade of the ticker read out,
// then summed per member in code. Also on constructed trades of a constructed ticker (marked below)
// for the edges: no bracket, a zero bracket, neither buy nor sell, same-day trades, a superseded
// trade. On SQLite the totals are read from the ticker index alone. Runs on SQLite and, with
// DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore, testDialect } from '../../test-support/database.js';
import { linkTradesOfRange } from '../../test-support/link-trades.js';
import { sqlitePlanOf } from '../../test-support/query-plan.js';
import type { Database } from '../schema.js';
import { type LinkTradeRow, latestLinkTrades } from './analytics-links.js';
import { type MemberTradeTotalsRow, memberTradeTotals } from './dossier-trades.js';
import type { TradeRangeFilter } from './trade-range.js';

const EVERY_DAY = { from: '0000-01-01', to: '9999-12-31' };

/** The former sum: every trade of the range read whole (oldest first), summed per member in code. */
function formerTotals(trades: readonly LinkTradeRow[]): MemberTradeTotalsRow[] {
  const byMember = new Map<number, MemberTradeTotalsRow>();
  for (const trade of trades) {
    const summary = byMember.get(trade.politician_id) ?? {
      politician_id: trade.politician_id,
      name: trade.politician_name,
      slug: trade.politician_slug,
      party: trade.party,
      chamber: trade.chamber,
      trade_count: 0,
      buys: 0,
      sells: 0,
      net_amount_mid: 0,
      first_trade_date: trade.transaction_date,
      last_trade_date: trade.transaction_date,
      trade_ids: [],
    };
    byMember.set(trade.politician_id, summary);
    const midpoint =
      trade.amount_low === null ? 0 : (trade.amount_low + (trade.amount_high ?? trade.amount_low)) / 2;
    summary.trade_count += 1;
    summary.trade_ids.push(trade.id);
    if (trade.trade_action === 'buy') {
      summary.buys += 1;
      summary.net_amount_mid += midpoint;
    } else if (trade.trade_action === 'sell') {
      summary.sells += 1;
      summary.net_amount_mid -= midpoint;
    }
    if (trade.transaction_date < summary.first_trade_date) summary.first_trade_date = trade.transaction_date;
    if (trade.transaction_date > summary.last_trade_date) summary.last_trade_date = trade.transaction_date;
  }
  return [...byMember.values()].sort((a, b) => a.politician_id - b.politician_id);
}

async function expectFormerAnswers(db: Kysely<Database>, filter: TradeRangeFilter): Promise<number> {
  const trades = await linkTradesOfRange(db, filter);
  expect(await memberTradeTotals(db, filter)).toEqual(formerTotals(trades));
  expect(await latestLinkTrades(db, filter, 25)).toEqual(trades.slice(-25).reverse());
  return trades.length;
}

const fixture = inject('fixture');

describe.skipIf(fixture === null)('memberTradeTotals on the real data', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  it('equals the former sum in code for the most traded tickers, every 20th ticker and a date range', async () => {
    const tickers = await store.db
      .selectFrom('trades')
      .select('ticker')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ticker', '<>', 'N/A')
      .where('superseded_by', 'is', null)
      .groupBy('ticker')
      .orderBy('n', 'desc')
      .orderBy('ticker')
      .execute();
    const chosen = [
      ...tickers.slice(0, 10),
      ...tickers.filter((_, index) => index % 20 === 0),
      ...tickers.filter((row) => row.ticker === 'LMT'),
    ].map((row) => row.ticker);
    expect(chosen).toContain('AAPL');
    let seen = 0;
    for (const ticker of new Set(chosen))
      seen += await expectFormerAnswers(store.db, { ...EVERY_DAY, tickers: [ticker] });
    expect(seen).toBeGreaterThan(1_000);
    expect(
      await expectFormerAnswers(store.db, {
        from: '2020-01-01',
        to: '2021-12-31',
        tickers: ['AAPL', 'MSFT'],
      }),
    ).toBeGreaterThan(10);
  });

  it('sums constructed trades with no bracket, a zero bracket, neither buy nor sell, same-day ties and an amendment', async () => {
    const db = store.db;
    const model = await db
      .selectFrom('trades')
      .selectAll()
      .where('ticker', '=', 'AAPL')
      .where('superseded_by', 'is', null)
      .orderBy('id')
      .execute();
    const first = model[0];
    const second = model.find((trade) => trade.politician_id !== first?.politician_id);
    if (!first || !second) throw new Error('fixture has no AAPL trades of two members');
    // Constructed: trades of a ticker no record names, copied from real ones.
    const constructed = (
      template: typeof first,
      key: string,
      values: Pick<typeof first, 'trade_action' | 'transaction_date' | 'amount_low' | 'amount_high'>,
    ) => {
      const { id: _id, ...copy } = template;
      return { ...copy, ...values, ticker: 'ZZDOSS', source_key: `${copy.source_key}#constructed-${key}` };
    };
    const inserted = await db
      .insertInto('trades')
      .values([
        constructed(first, 'a', {
          trade_action: 'sell',
          transaction_date: '2024-03-01',
          amount_low: 0,
          amount_high: 0,
        }),
        constructed(first, 'b', {
          trade_action: 'buy',
          transaction_date: '2024-03-01',
          amount_low: null,
          amount_high: null,
        }),
        constructed(first, 'c', {
          trade_action: 'exchange',
          transaction_date: '2024-02-01',
          amount_low: 1_001,
          amount_high: 15_000,
        }),
        constructed(second, 'd', {
          trade_action: 'buy',
          transaction_date: '2024-05-01',
          amount_low: 50_000_001,
          amount_high: null,
        }),
        constructed(second, 'e', {
          trade_action: 'sell',
          transaction_date: '2024-05-01',
          amount_low: 15_001,
          amount_high: 50_000,
        }),
        constructed(second, 'f', {
          trade_action: 'buy',
          transaction_date: '2024-06-01',
          amount_low: 1_001,
          amount_high: 15_000,
        }),
      ])
      .returning('id')
      .execute();
    const last = inserted.at(-1);
    if (!last) throw new Error('nothing inserted');
    // The last is amended by the one before it: it leaves the sums.
    await db
      .updateTable('trades')
      .set({ superseded_by: inserted.at(-2)?.id ?? null })
      .where('id', '=', last.id)
      .execute();
    const filter = { ...EVERY_DAY, tickers: ['ZZDOSS'] };
    expect(await expectFormerAnswers(db, filter)).toBe(5);
    const totals = await memberTradeTotals(db, filter);
    const zeroSells = totals.find((row) => row.politician_id === first.politician_id);
    expect(zeroSells?.net_amount_mid).toBe(0);
    expect(Object.is(zeroSells?.net_amount_mid, -0)).toBe(false);
    expect(zeroSells?.trade_ids).toEqual(
      inserted
        .slice(2, 3)
        .concat(inserted.slice(0, 2))
        .map((row) => row.id),
    );
  });

  it.skipIf(testDialect() !== 'sqlite')(
    'reads the totals from the ticker index alone on SQLite',
    async () => {
      const plan = await sqlitePlanOf(store.db, (db) =>
        memberTradeTotals(db, { ...EVERY_DAY, tickers: ['AAPL'] }),
      );
      const trades = plan.filter((detail) => /\bt\b/.test(detail));
      expect(trades).toEqual([expect.stringContaining('USING COVERING INDEX trades_ticker_transaction_idx')]);
    },
  );
});
