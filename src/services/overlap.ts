// GET /overlap and the links of /conflict/{politician_id}: members' trades in companies that
// lobbied their committees, won contracts from agencies their committees oversee, or gave to their
// campaigns, within a window of the trade; each with the records that make the link.
import type { Kysely } from 'kysely';
import {
  DEFAULT_WINDOW_DAYS,
  hasLinks,
  LINK_KINDS,
  type LinkKind,
  linkKindsOf,
  linksOfTrade,
  loadLinkIndex,
  type TradeLinks,
} from '../analytics/overlap.js';
import { contractUrl } from '../resources/contract.js';
import { lobbyingDocumentUrl } from '../resources/lobbying.js';
import {
  bioguideIdsOf,
  type LinkTradeRow,
  linkedTickers,
  linkTradesByIds,
  tradeKeysForLinks,
} from '../storage/repositories/analytics-links.js';
import type { TradeRangeFilter } from '../storage/repositories/trade-range.js';
import type { Database } from '../storage/schema.js';
import { inReadSnapshot } from '../storage/transaction.js';

export { DEFAULT_WINDOW_DAYS, LINK_KINDS, type LinkKind, linkKindsOf };

/** The analytics range /overlap takes (its member filter is politicianIds below). */
export type TradeRange = Pick<TradeRangeFilter, 'from' | 'to' | 'tickers' | 'sources' | 'actions'>;

export interface OverlapQuery extends TradeRange {
  windowDays: number;
  kinds: readonly LinkKind[];
  politicianIds?: readonly number[];
  limit: number;
  offset: number;
}

/** Keeps only the asked kinds of links. */
export function onlyKinds(links: TradeLinks, kinds: readonly LinkKind[]): TradeLinks {
  return {
    seats: links.seats,
    lobbying: kinds.includes('lobbying') ? links.lobbying : [],
    contracts: kinds.includes('contract') ? links.contracts : [],
    campaign: kinds.includes('campaign') ? links.campaign : [],
  };
}

/** The links as the API serves them: each lobbying filing and contract with its public URL. */
export function withUrls(links: TradeLinks) {
  return {
    committees_at_trade: links.seats,
    lobbying: links.lobbying.map((filing) => ({ ...filing, url: lobbyingDocumentUrl(filing.filing_uuid) })),
    contracts: links.contracts.map(({ award_key: awardKey, ...award }) => ({
      ...award,
      url: contractUrl(awardKey),
    })),
    campaign: links.campaign,
  };
}

export function tradeSummary(trade: LinkTradeRow) {
  return {
    id: trade.id,
    politician_id: trade.politician_id,
    politician_name: trade.politician_name,
    politician_slug: trade.politician_slug,
    party: trade.party,
    chamber: trade.chamber,
    ticker: trade.ticker,
    trade_type: trade.trade_type,
    transaction_date: trade.transaction_date,
    disclosure_date: trade.disclosure_date,
    amount_range: trade.amount_range,
    amount_low: trade.amount_low,
    amount_high: trade.amount_high,
  };
}

/**
 * The overlap hits of a query, a page of them with their trades. One read-only snapshot, so the
 * page's whole rows are those of the keys the hits were found on (a trade superseded meanwhile
 * would otherwise leave a hole in the page that `total` still counts).
 */
export function findOverlap(db: Kysely<Database>, query: OverlapQuery) {
  return inReadSnapshot(db, (trx) => overlapPage(trx, query));
}

async function overlapPage(db: Kysely<Database>, query: OverlapQuery) {
  // Only tickers some lobbying filing, contract or PAC names can overlap: the trade read stays small.
  const linked = await linkedTickers(db);
  const tickers = query.tickers ? linked.filter((ticker) => query.tickers?.includes(ticker)) : linked;
  // The matching reads each trade's keys only; the whole rows are read for the page's hits.
  const trades =
    tickers.length === 0
      ? []
      : await tradeKeysForLinks(db, {
          from: query.from,
          to: query.to,
          tickers,
          sources: query.sources,
          actions: query.actions,
          politicianIds: query.politicianIds,
        });
  const bioguideOf = await bioguideIdsOf(db, [...new Set(trades.map((trade) => trade.politician_id))]);
  const index = await loadLinkIndex(
    db,
    [...new Set(trades.map((trade) => trade.ticker))],
    [...bioguideOf.values()],
  );
  const hits: { id: number; links: TradeLinks }[] = [];
  // Newest trades first, as the other lists.
  for (const trade of [...trades].reverse()) {
    const links = onlyKinds(
      linksOfTrade(
        {
          id: trade.id,
          bioguideId: bioguideOf.get(trade.politician_id) ?? null,
          ticker: trade.ticker,
          date: trade.transaction_date,
        },
        index,
        query.windowDays,
      ),
      query.kinds,
    );
    if (hasLinks(links)) hits.push({ id: trade.id, links });
  }
  const page = hits.slice(query.offset, query.offset + query.limit);
  const rows = new Map(
    (
      await linkTradesByIds(
        db,
        page.map((hit) => hit.id),
      )
    ).map((row) => [row.id, row]),
  );
  return {
    total: hits.length,
    hits: page.flatMap(({ id, links }) => {
      const trade = rows.get(id);
      return trade
        ? [{ trade: tradeSummary(trade), link_kinds: linkKindsOf(links), ...withUrls(links) }]
        : [];
    }),
  };
}
