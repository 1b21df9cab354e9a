// The conflict links of a member's trades: for each trade, the committees held on its date whose
// jurisdiction covers its sector or industry, and its lobbying, contract and campaign links at the
// default window (GET /overlap's rules). The one place they are computed: GET
// /conflict/{politician_id} serves them, conflict_score weighs them, and member refreshes store
// them (trade_links) so that the route reads a page instead of matching every trade per request.
// Method: docs/analytics-links.md.
import { underJurisdiction } from '../domain/committee-sectors.js';
import {
  DEFAULT_WINDOW_DAYS,
  hasLinks,
  type LinkIndex,
  type LinkKind,
  linkKindsOf,
  linksOfTrade,
  type TradeLinks,
} from './overlap.js';

export interface LinkableTrade {
  id: number;
  ticker: string;
  /** Transaction date (YYYY-MM-DD). */
  date: string;
  sector: string | null;
  industry: string | null;
}

export interface TradeConflict {
  tradeId: number;
  date: string;
  /** Committees held on the trade date whose jurisdiction covers the trade's sector or industry. */
  committees: string[];
  linkKinds: LinkKind[];
  links: TradeLinks;
}

export interface MemberLinks {
  /** The earliest start of the member's recorded seats; null when none is recorded. */
  seatsKnownFrom: string | null;
  /** The trades a committee held on their date oversees or that are linked, in the order given. */
  conflicts: TradeConflict[];
}

/** A member's trades that are overseen by a committee held on the trade date or linked to money. */
export function memberLinks(
  trades: readonly LinkableTrade[],
  bioguideId: string | null,
  index: LinkIndex,
): MemberLinks {
  const seats = bioguideId ? (index.seats.get(bioguideId) ?? []) : [];
  const conflicts: TradeConflict[] = [];
  for (const trade of trades) {
    const links = linksOfTrade(
      { id: trade.id, bioguideId, ticker: trade.ticker, date: trade.date },
      index,
      DEFAULT_WINDOW_DAYS,
    );
    const committees = links.seats
      .map((seat) => seat.committee_id)
      .filter((id) => underJurisdiction([id], trade.sector, trade.industry));
    if (committees.length === 0 && !hasLinks(links)) continue;
    conflicts.push({ tradeId: trade.id, date: trade.date, committees, linkKinds: linkKindsOf(links), links });
  }
  return { seatsKnownFrom: seats.map((seat) => seat.startDate).sort()[0] ?? null, conflicts };
}
