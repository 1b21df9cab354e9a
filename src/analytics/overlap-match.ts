// Which trades of a range have overlap links at a window: the matching GET /overlap runs over a
// request's range and the stored overlap's rebuild runs over the whole history, so both give the
// same links by construction.
import type { Kysely } from 'kysely';
import {
  bioguideIdsOf,
  type LinkTradeKey,
  linkedTickers,
  tradeKeysForLinks,
} from '../storage/repositories/analytics-links.js';
import type { TradeRangeFilter } from '../storage/repositories/trade-range.js';
import type { Database } from '../storage/schema.js';
import { hasLinks, linksOfTrade, loadLinkIndex, type TradeLinks } from './overlap.js';

export interface OverlapMatch {
  trade: LinkTradeKey;
  /** Every kind of link the trade has at the window (never none). */
  links: TradeLinks;
}

/** The range's trades with some link within `windowDays`, newest transaction first (ties: higher id first). */
export async function matchOverlap(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  windowDays: number,
): Promise<OverlapMatch[]> {
  // Only tickers some lobbying filing, contract or PAC names can overlap: the trade read stays small.
  const linked = await linkedTickers(db);
  const tickers = range.tickers ? linked.filter((ticker) => range.tickers?.includes(ticker)) : linked;
  // The matching reads each trade's keys only; callers read the whole rows of the hits they show.
  const trades = tickers.length === 0 ? [] : await tradeKeysForLinks(db, { ...range, tickers });
  const bioguideOf = await bioguideIdsOf(db, [...new Set(trades.map((trade) => trade.politician_id))]);
  const index = await loadLinkIndex(
    db,
    [...new Set(trades.map((trade) => trade.ticker))],
    [...bioguideOf.values()],
  );
  const matches: OverlapMatch[] = [];
  for (const trade of [...trades].reverse()) {
    const links = linksOfTrade(
      {
        id: trade.id,
        bioguideId: bioguideOf.get(trade.politician_id) ?? null,
        ticker: trade.ticker,
        date: trade.transaction_date,
      },
      index,
      windowDays,
    );
    if (hasLinks(links)) matches.push({ trade, links });
  }
  return matches;
}
