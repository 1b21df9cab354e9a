// Member statistics and reconstructed holdings, stored for the profile, the rankings and the
// portfolio routes. Recomputed for every member with --all; otherwise for members with changed
// trades, members without statistics, and members holding symbols whose prices changed since.
import type { Kysely } from 'kysely';
import type { PriceSeries } from '../market/series.js';
import { type SymbolDataCache, valuationSeries } from '../market/series-loader.js';
import { bioguideIdsOf } from '../storage/repositories/analytics-links.js';
import {
  committeesByMember,
  type HoldingWrite,
  membersWithTrades,
  type StatsTradeRow,
  type StatsWrite,
  saveMemberResults,
  staleMembers,
  statsTrades,
} from '../storage/repositories/enrichment.js';
import { membersWithStaleLinks, saveMemberLinks } from '../storage/repositories/trade-links.js';
import type { MemberLinksTable, TradeLinksTable } from '../storage/schema/analytics.js';
import type { Database } from '../storage/schema.js';
import { type ConflictBasis, memberStats, type StatsTrade } from './member-stats.js';
import { type LinkIndex, loadLinkIndex, seatEvidence } from './overlap.js';
import { type Holding, reconstructHoldings } from './portfolio.js';
import { type MemberLinks, memberLinks } from './trade-links.js';

const MEMBERS_PER_BATCH = 25;

export function toStatsTrade(row: StatsTradeRow): StatsTrade {
  return {
    id: row.id,
    ticker: row.ticker,
    symbol: row.market_symbol,
    assetType: row.asset_type,
    assetDescription: row.asset_description,
    sector: row.sector,
    industry: row.industry,
    action: row.trade_action,
    fullSale: row.trade_type === 'Sell',
    date: row.transaction_date,
    amountLow: row.amount_low,
    amountHigh: row.amount_high,
    optionType: row.option_type,
    gain90d: row.gain_90d,
    alpha30d: row.alpha_30d,
    alpha90d: row.alpha_90d,
  };
}

export async function refreshMembers(
  db: Kysely<Database>,
  options: {
    today: string;
    stamp: string;
    all: boolean;
    touchedMembers: ReadonlySet<number>;
    progress?: (phase: string, done: number, total: number) => void;
    cache: SymbolDataCache;
  },
): Promise<{ refreshed: number }> {
  const members = options.all
    ? await membersWithTrades(db)
    : [
        ...new Set([
          ...options.touchedMembers,
          ...(await staleMembers(db)),
          // Trade links (and conflict_score) follow new lobbying filings, contracts and seat changes.
          ...(await membersWithStaleLinks(db)),
        ]),
      ].sort((a, b) => a - b);
  if (members.length === 0) return { refreshed: 0 };
  const committees = await committeesByMember(db);
  // conflict_score weighs seats held on each trade's date and the trades' lobbying, contract and
  // campaign links (docs/analytics-links.md): the records are read once for the whole run.
  const bioguides = await bioguideIdsOf(db, members);
  const links = await loadLinkIndex(db, 'all', [...bioguides.values()]);
  const series = new Map<string, PriceSeries | null>();
  const seriesOf = (symbol: string) => series.get(symbol) ?? undefined;
  let done = 0;
  for (let start = 0; start < members.length; start += MEMBERS_PER_BATCH) {
    const batch = members.slice(start, start + MEMBERS_PER_BATCH);
    const rows = await statsTrades(db, batch);
    const missing = [
      ...new Set(rows.flatMap((row) => (row.market_symbol ? [row.market_symbol] : []))),
    ].filter((symbol) => !series.has(symbol));
    const loaded = await options.cache.get(db, missing);
    for (const symbol of missing)
      series.set(symbol, valuationSeries(loaded.get(symbol)?.series ?? []) ?? null);
    const byMember = new Map<number, StatsTrade[]>();
    for (const row of rows) {
      const list = byMember.get(row.politician_id) ?? [];
      list.push(toStatsTrade(row));
      byMember.set(row.politician_id, list);
    }
    const stats: StatsWrite[] = [];
    const holdings: HoldingWrite[] = [];
    const memberRows: MemberLinksTable[] = [];
    const linkRows: TradeLinksTable[] = [];
    for (const politicianId of batch) {
      const trades = byMember.get(politicianId) ?? [];
      const bioguideId = bioguides.get(politicianId) ?? null;
      const found = memberLinks(trades, bioguideId, links);
      memberRows.push({
        politician_id: politicianId,
        seats_known_from: found.seatsKnownFrom,
        computed_at: options.stamp,
      });
      for (const conflict of found.conflicts) {
        linkRows.push({
          trade_id: conflict.tradeId,
          politician_id: politicianId,
          transaction_date: conflict.date,
          committees: JSON.stringify(conflict.committees),
          link_kinds: JSON.stringify(conflict.linkKinds),
          evidence: JSON.stringify(conflict.links),
          computed_at: options.stamp,
        });
      }
      const basis = conflictBasis(trades, bioguideId, links, found);
      const result = memberStats(trades, seriesOf, options.today, committees.get(politicianId) ?? [], basis);
      stats.push({
        politician_id: politicianId,
        win_rate: result.winRate,
        wins: result.wins,
        losses: result.losses,
        avg_alpha_30d: result.avgAlpha30d,
        avg_alpha_90d: result.avgAlpha90d,
        sharpe_ratio: result.sharpeRatio.value,
        sharpe_ratio_low: result.sharpeRatio.low,
        sharpe_ratio_high: result.sharpeRatio.high,
        portfolio_return: result.portfolioReturn.value,
        portfolio_return_low: result.portfolioReturn.low,
        portfolio_return_high: result.portfolioReturn.high,
        cagr: result.cagr.value,
        cagr_low: result.cagr.low,
        cagr_high: result.cagr.high,
        conflict_score: result.conflictScore.value,
        conflict_score_low: result.conflictScore.low,
        conflict_score_high: result.conflictScore.high,
        holdings_count: result.holdingsCount,
        priced_share: result.pricedShare,
        portfolio_start: result.portfolioStart,
        portfolio_end: result.portfolioEnd,
        computed_at: options.stamp,
      });
      for (const holding of reconstructHoldings(trades, seriesOf, options.today)) {
        holdings.push(holdingRow(politicianId, holding, options.stamp));
      }
    }
    await db.transaction().execute(async (trx) => {
      await saveMemberResults(trx, batch, stats, holdings);
      await saveMemberLinks(trx, batch, memberRows, linkRows);
    });
    done += batch.length;
    options.progress?.('members', done, members.length);
  }
  return { refreshed: members.length };
}

/** Seats on each trade's date and the trades' links (memberLinks), for conflict_score. */
export function conflictBasis(
  trades: readonly StatsTrade[],
  bioguideId: string | null,
  links: LinkIndex,
  found: MemberLinks = memberLinks(trades, bioguideId, links),
): ConflictBasis {
  const seats = bioguideId ? (links.seats.get(bioguideId) ?? []) : [];
  return {
    seatsKnownFrom: found.seatsKnownFrom,
    committeesOn: (date) => seatEvidence(seats, date).map((seat) => seat.committee_id),
    linkedTradeIds: new Set(
      found.conflicts.filter((conflict) => conflict.linkKinds.length > 0).map((conflict) => conflict.tradeId),
    ),
  };
}

function holdingRow(politicianId: number, holding: Holding, stamp: string): HoldingWrite {
  return {
    politician_id: politicianId,
    ticker: holding.ticker,
    market_symbol: holding.symbol,
    asset_description: holding.assetDescription,
    sector: holding.sector,
    status: holding.status,
    net_direction: holding.netDirection,
    trade_count: holding.tradeCount,
    buy_count: holding.buyCount,
    sell_count: holding.sellCount,
    first_trade_date: holding.firstTradeDate,
    last_trade_date: holding.lastTradeDate,
    value_basis: holding.valueBasis,
    last_price_date: holding.lastPriceDate,
    bought_low: holding.bought.low,
    bought_high: holding.bought.high,
    sold_low: holding.sold.low,
    sold_high: holding.sold.high,
    cost_low: holding.cost.low,
    cost_high: holding.cost.high,
    cost_mid: holding.cost.mid,
    value_low: holding.value.low,
    value_high: holding.value.high,
    value_mid: holding.value.mid,
    last_price: holding.lastPrice,
    unrealized_pnl_low: holding.unrealizedPnl?.low ?? null,
    unrealized_pnl_high: holding.unrealizedPnl?.high ?? null,
    unrealized_pnl_mid: holding.unrealizedPnl?.mid ?? null,
    computed_at: stamp,
  };
}
