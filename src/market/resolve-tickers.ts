// Applies ticker resolution to trades: N/A tickers resolved from their descriptions, class-share
// spellings respelled. Every decision is recorded in ticker_resolutions (method, source, the
// candidates when ambiguous); the filer's text stays in trades.filed_ticker whenever the served
// ticker differs from it, and a resolution that no longer holds puts the filed ticker back.
import type { Kysely } from 'kysely';
import { NO_TICKER } from '../domain/ticker.js';
import {
  allListings,
  type ResolutionWrite,
  resolutionCandidates,
  saveResolutions,
  setTradeTickers,
} from '../storage/repositories/companies.js';
import type { Database } from '../storage/schema.js';
import {
  type DirectoryListing,
  resolveDescription,
  respellClassShare,
  TickerDirectory,
} from './ticker-resolution.js';

export interface ResolutionReport {
  checked: number;
  resolved: number;
  respelled: number;
  ambiguous: number;
  unresolved: number;
  notEquity: number;
  /** Trades whose served ticker changed in this run. */
  tickersChanged: number;
  byMethod: Record<string, number>;
}

const LISTED_SOURCES = new Set(['sp500', 'sp500_snapshot', 'nasdaq_screener', 'nasdaqtrader', 'ticker_list']);
const LISTED_EXCHANGES = new Set(['NASDAQ', 'NYSE', 'CBOE', 'NYSE MKT', 'NYSE ARCA', 'AMEX', 'BATS']);

export async function loadDirectory(db: Kysely<Database>): Promise<TickerDirectory> {
  const listings = await allListings(db);
  const listed = new Set<string>();
  for (const listing of listings) {
    const exchangeListed = listing.exchange !== null && LISTED_EXCHANGES.has(listing.exchange.toUpperCase());
    if (LISTED_SOURCES.has(listing.source) || exchangeListed) listed.add(listing.ticker);
  }
  return new TickerDirectory(
    listings.map(
      (listing): DirectoryListing => ({
        ticker: listing.ticker,
        source: listing.source,
        nameKey: listing.name_key,
        shareClass: listing.share_class,
        // OTC-only tickers (foreign ordinaries like SAPGF beside SAP) would make every big name ambiguous.
        matchable: listing.common === 1 && listed.has(listing.ticker),
      }),
    ),
  );
}

/** Resolves trades never looked at (`all`: every candidate again, e.g. after a directory import). */
export async function resolveTradeTickers(
  db: Kysely<Database>,
  options: { all: boolean; now: Date },
): Promise<ResolutionReport> {
  const report: ResolutionReport = {
    checked: 0,
    resolved: 0,
    respelled: 0,
    ambiguous: 0,
    unresolved: 0,
    notEquity: 0,
    tickersChanged: 0,
    byMethod: {},
  };
  const candidates = await resolutionCandidates(db, { onlyNew: !options.all });
  if (candidates.length === 0) return report;
  const directory = await loadDirectory(db);
  const writes: ResolutionWrite[] = [];
  const changes: Array<{ id: number; ticker: string; filed_ticker: string | null }> = [];
  for (const trade of candidates) {
    const filed = trade.filed_ticker ?? trade.ticker;
    let served = filed;
    let write: ResolutionWrite;
    if (filed === NO_TICKER) {
      const decision = resolveDescription(trade.asset_description, trade.asset_type, directory);
      write = {
        trade_id: trade.id,
        filed_ticker: filed,
        ticker: decision.status === 'resolved' ? decision.ticker : null,
        status: decision.status,
        method: 'method' in decision ? decision.method : null,
        source: decision.status === 'resolved' ? decision.source : null,
        candidates: decision.status === 'ambiguous' ? decision.candidates.join(',') : null,
        detail: decision.detail,
      };
      if (decision.status === 'resolved') served = decision.ticker;
    } else {
      const respelled = respellClassShare(filed);
      if (respelled === null) continue;
      served = respelled;
      write = {
        trade_id: trade.id,
        filed_ticker: filed,
        ticker: respelled,
        status: 'respelled',
        method: 'class_share',
        source: null,
        candidates: null,
        detail: `class share written ${filed}`,
      };
    }
    writes.push(write);
    count(report, write);
    const filedTicker = served === filed ? null : filed;
    if (served !== trade.ticker || filedTicker !== trade.filed_ticker) {
      changes.push({ id: trade.id, ticker: served, filed_ticker: filedTicker });
    }
  }
  const stamp = options.now.toISOString();
  await db.transaction().execute(async (trx) => {
    await saveResolutions(trx, writes, stamp);
    await setTradeTickers(trx, changes, stamp);
  });
  report.tickersChanged = changes.length;
  return report;
}

function count(report: ResolutionReport, write: ResolutionWrite): void {
  report.checked += 1;
  switch (write.status) {
    case 'resolved':
      report.resolved += 1;
      break;
    case 'respelled':
      report.respelled += 1;
      break;
    case 'ambiguous':
      report.ambiguous += 1;
      break;
    case 'unresolved':
      report.unresolved += 1;
      break;
    default:
      report.notEquity += 1;
  }
  if (write.status === 'resolved' && write.method) {
    report.byMethod[write.method] = (report.byMethod[write.method] ?? 0) + 1;
  }
}
