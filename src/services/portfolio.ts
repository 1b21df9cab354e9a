// Reconstructed portfolios as the API serves them (estimation rules in docs/market-data.md, "Portfolios").
import type { Kysely } from 'kysely';
import { pick } from '../domain/pick.js';
import { notFound, quoted } from '../errors.js';
import { findProfile } from '../storage/repositories/politicians-read.js';
import { type HoldingRecord, holdingsOf, portfolioComputedAt } from '../storage/repositories/portfolio.js';
import type { Database } from '../storage/schema.js';

const round2 = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 100) / 100;

async function member(db: Kysely<Database>, idOrSlug: string) {
  const profile = await findProfile(db, idOrSlug);
  if (!profile) throw notFound(`No politician with id or slug ${quoted(idOrSlug)}`);
  return {
    politician_id: profile.politician_id,
    name: profile.name,
    slug: profile.slug,
    as_of: await portfolioComputedAt(db, profile.politician_id),
  };
}

/** What a holding serves of its record as the record holds it, before the rounded amounts. */
const HOLDING_FIELDS = [
  'ticker',
  'asset_description',
  'sector',
  'status',
  'net_direction',
  'trade_count',
  'buy_count',
  'sell_count',
  'first_trade_date',
  'last_trade_date',
  'value_basis',
] as const;

function sum(records: readonly HoldingRecord[], pick: (record: HoldingRecord) => number | null): number {
  return records.reduce((total, record) => total + (pick(record) ?? 0), 0);
}

export async function getPortfolio(db: Kysely<Database>, idOrSlug: string, status?: 'open' | 'closed') {
  const who = await member(db, idOrSlug);
  const records = await holdingsOf(db, who.politician_id, { status });
  const open = records.filter((record) => record.status === 'open');
  return {
    ...who,
    holdings_count: open.length,
    estimated_value_low: round2(sum(open, (record) => record.value_low)),
    estimated_value_mid: round2(sum(open, (record) => record.value_mid)),
    estimated_value_high: round2(sum(open, (record) => record.value_high)),
    // Object.assign rather than a literal starting with a spread (see toInsiderTrade).
    holdings: records.map((record) =>
      Object.assign(pick(record, HOLDING_FIELDS), {
        estimated_value_low: round2(record.value_low),
        estimated_value_mid: round2(record.value_mid),
        estimated_value_high: round2(record.value_high),
        bought_low: round2(record.bought_low),
        bought_high: round2(record.bought_high),
        sold_low: round2(record.sold_low),
        sold_high: round2(record.sold_high),
      }),
    ),
  };
}

export async function getPositions(db: Kysely<Database>, idOrSlug: string) {
  const who = await member(db, idOrSlug);
  const open = await holdingsOf(db, who.politician_id, { status: 'open' });
  const priced = open.filter((record) => record.value_basis === 'market');
  const unpriced = open.filter((record) => record.value_basis !== 'market');
  const total = sum(priced, (record) => record.value_mid);
  return {
    ...who,
    total_value_low: round2(sum(priced, (record) => record.value_low)),
    total_value_mid: round2(total),
    total_value_high: round2(sum(priced, (record) => record.value_high)),
    unrealized_pnl_mid: round2(sum(priced, (record) => record.unrealized_pnl_mid)),
    positions: priced.map((record) =>
      Object.assign(
        pick(record, ['ticker', 'asset_description', 'sector', 'last_price', 'last_price_date']),
        {
          value_low: round2(record.value_low),
          value_mid: round2(record.value_mid),
          value_high: round2(record.value_high),
          cost_low: round2(record.cost_low),
          cost_mid: round2(record.cost_mid),
          cost_high: round2(record.cost_high),
          unrealized_pnl_low: round2(record.unrealized_pnl_low),
          unrealized_pnl_mid: round2(record.unrealized_pnl_mid),
          unrealized_pnl_high: round2(record.unrealized_pnl_high),
          unrealized_pnl_pct:
            record.cost_mid && record.unrealized_pnl_mid !== null
              ? round2((100 * record.unrealized_pnl_mid) / record.cost_mid)
              : null,
          weight:
            total > 0 && record.value_mid !== null
              ? Math.round((record.value_mid / total) * 10_000) / 10_000
              : null,
        },
      ),
    ),
    unpriced_holdings: unpriced.map((record) => ({
      ticker: record.ticker,
      asset_description: record.asset_description,
      cost_low: round2(record.cost_low),
      cost_high: round2(record.cost_high),
    })),
  };
}
