// `/trades?trade_type=` with any combination of the documented trade types, over CONSTRUCTED trades
// (not real data): every action and display label, trades without a ticker, an amended-away trade.
// A combined filter answers exactly the union of its single-type answers, and only those types.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADE_ACTIONS, type TradeAction } from '../../../domain/trade-type.js';
import type { Trade } from '../../../resources/trade.js';
import { type FixtureApp, getJson, openEmptyApp } from '../../../test-support/app.js';

const STAMP = '2026-05-01T00:00:00.000Z';

/** Constructed trades: [display label, action, ticker]; 'N/A' is a trade without a ticker. */
const CONSTRUCTED: ReadonlyArray<readonly [string, TradeAction, string]> = [
  ['Buy', 'buy', 'AAPL'],
  ['Buy', 'buy', 'MSFT'],
  ['Buy', 'buy', 'N/A'],
  ['Sell', 'sell', 'AAPL'],
  ['Sell (Partial)', 'sell', 'XOM'],
  ['Sell', 'sell', 'N/A'],
  ['Exchange', 'exchange', 'T'],
  ['Exchange', 'exchange', 'N/A'],
  ['Exercise', 'exercise', 'NVDA'],
  ['Exercise', 'exercise', 'AAPL'],
  ['Exercise', 'exercise', 'N/A'],
  ['Expired', 'expired', 'NVDA'],
  ['Expired', 'expired', 'N/A'],
];

const WINDOW = 'date_from=2026-05-01&date_to=2026-05-31&limit=1000';

describe('GET /trades?trade_type= with combined values (constructed trades)', () => {
  let ctx: FixtureApp;
  /** Trade id -> its action, for the rows a trade_type filter may return (ticker known, not superseded). */
  const actionOf = new Map<number, TradeAction>();

  beforeAll(async () => {
    ctx = await openEmptyApp();
    const db = ctx.store.db;
    const member = await db
      .insertInto('politicians')
      .values({
        slug: 'casey-constructed',
        bioguide_id: 'Z000099',
        lis_id: null,
        name: 'Casey Constructed',
        first_name: null,
        last_name: null,
        nickname: null,
        party: 'I',
        state: 'ZZ',
        chamber: 'House',
        district: null,
        title: null,
        agency: null,
        birthday: null,
        in_office: 1,
        origin: 'constructed',
        created_at: STAMP,
        updated_at: STAMP,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const insert = async (index: number, [label, action, ticker]: readonly [string, TradeAction, string]) =>
      db
        .insertInto('trades')
        .values({
          politician_id: member.id,
          filing_id: null,
          source: 'house_clerk',
          source_key: `constructed#trade-type-${index}`,
          origin: 'constructed',
          ticker,
          asset_description: `${ticker} constructed asset`,
          asset_type: label === 'Exercise' || label === 'Expired' ? 'Option' : 'Stock',
          trade_type: label,
          trade_action: action,
          amount_range: '$1,001 - $15,000',
          amount_low: 1001,
          amount_high: 15000,
          transaction_date: '2026-04-20',
          disclosure_date: `2026-05-${String(10 + index).padStart(2, '0')}`,
          days_to_disclose: 20 + index,
          owner: 'Self',
          comment: null,
          option_type: null,
          strike_price: null,
          option_expiry: null,
          sector: null,
          industry: null,
          gain_30d: null,
          alpha_30d: null,
          is_ma_affected: 0,
          created_at: STAMP,
          updated_at: STAMP,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    for (const [index, trade] of CONSTRUCTED.entries()) {
      const { id } = await insert(index, trade);
      if (trade[2] !== 'N/A') actionOf.set(id, trade[1]);
    }
    // An exercise an amendment replaced: never listed without include_superseded.
    const replaced = await insert(CONSTRUCTED.length, ['Exercise', 'exercise', 'AMD']);
    const replacement = [...actionOf].find(([, action]) => action === 'exercise')?.[0] ?? null;
    await db
      .updateTable('trades')
      .set({ superseded_by: replacement })
      .where('id', '=', replaced.id)
      .execute();
  });
  afterAll(async () => ctx?.close());

  const idsFor = async (tradeType: string): Promise<number[]> => {
    // A second per call keeps any number of runs under the key's per-minute limit.
    ctx.clock.advance(1_000);
    const { status, body } = await getJson<Trade[]>(
      ctx,
      `/trades?${WINDOW}&trade_type=${encodeURIComponent(tradeType)}`,
    );
    expect(status, tradeType).toBe(200);
    return body.map((trade) => trade.id).sort((a, b) => a - b);
  };
  const expectedFor = (actions: readonly TradeAction[]) =>
    [...actionOf]
      .filter(([, action]) => actions.includes(action))
      .map(([id]) => id)
      .sort((a, b) => a - b);

  it('answers exercise,expired with exactly the exercises and expiries that have a ticker', async () => {
    const ids = await idsFor('exercise,expired');
    expect(ids).toEqual(expectedFor(['exercise', 'expired']));
    expect(ids).toHaveLength(3);
    const { body } = await getJson<Trade[]>(ctx, `/trades?${WINDOW}&trade_type=exercise,expired`);
    expect(new Set(body.map((trade) => trade.trade_type))).toEqual(new Set(['Exercise', 'Expired']));
  });

  it('answers any combination with the union of the single-type answers, and only those types', async () => {
    const single = new Map<TradeAction, number[]>();
    for (const action of TRADE_ACTIONS) {
      const ids = await idsFor(action);
      expect(ids, action).toEqual(expectedFor([action]));
      expect(ids.length, action).toBeGreaterThan(0);
      single.set(action, ids);
    }
    // Spelled as clients write lists: any order, any case, spaces around items, repeats.
    const spelled = fc
      .tuple(
        fc.constantFrom(...TRADE_ACTIONS),
        fc.constantFrom('lower', 'upper', 'title'),
        fc.constantFrom('', ' ', '  '),
      )
      .map(([action, casing, pad]) => {
        const text =
          casing === 'upper'
            ? action.toUpperCase()
            : casing === 'title'
              ? `${action.charAt(0).toUpperCase()}${action.slice(1)}`
              : action;
        return { action, text: `${pad}${text}${pad}` };
      });
    await fc.assert(
      fc.asyncProperty(fc.array(spelled, { minLength: 1, maxLength: 7 }), async (items) => {
        const query = items.map((item) => item.text).join(',');
        const chosen = [...new Set(items.map((item) => item.action))];
        const ids = await idsFor(query);
        const union = [...new Set(chosen.flatMap((action) => single.get(action) ?? []))].sort(
          (a, b) => a - b,
        );
        expect(ids, query).toEqual(union);
        for (const id of ids) expect(chosen, `${query}: trade ${id}`).toContain(actionOf.get(id));
      }),
      { numRuns: 60 },
    );
  });

  it('refuses an unknown type in a list with a 422 naming the field', async () => {
    const { status, body } = await getJson<{ detail: string }>(
      ctx,
      `/trades?${WINDOW}&trade_type=exercise,gift`,
    );
    expect(status).toBe(422);
    expect(body.detail).toContain('trade_type');
    expect(body.detail).toContain('gift');
  });
});
