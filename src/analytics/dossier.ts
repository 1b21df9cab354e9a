// The pure parts of the company dossier (GET /companies/{ticker}): members' trades summed per member
// with their net direction, and which committees oversee the company (by its sector or industry,
// and by the agencies it lobbied or that awarded it contracts). Method in docs/analytics-links.md.

import { COMMITTEE_OVERSIGHT, overseenAgencies } from '../domain/committee-oversight.js';
import { COMMITTEE_JURISDICTIONS, underJurisdiction } from '../domain/committee-sectors.js';

export interface DossierTrade {
  id: number;
  politician_id: number;
  politician_name: string;
  politician_slug: string;
  party: string | null;
  chamber: string;
  trade_action: string;
  transaction_date: string;
  amount_low: number | null;
  amount_high: number | null;
}

export type NetDirection = 'buy' | 'sell' | 'even';

export interface MemberTradeSummary {
  politician_id: number;
  name: string;
  slug: string;
  party: string | null;
  chamber: string;
  trade_count: number;
  buys: number;
  sells: number;
  /** Bought minus sold at bracket midpoints, dollars. */
  net_amount_mid: number;
  net_direction: NetDirection;
  first_trade_date: string;
  last_trade_date: string;
  trade_ids: number[];
}

function midpoint(trade: Pick<DossierTrade, 'amount_low' | 'amount_high'>): number {
  if (trade.amount_low === null) return 0;
  return (trade.amount_low + (trade.amount_high ?? trade.amount_low)) / 2;
}

export function directionOf(net: number): NetDirection {
  return net > 0 ? 'buy' : net < 0 ? 'sell' : 'even';
}

/** Per member, most trades first (then name): counts, net direction by midpoints, first and last dates. */
export function summarizeMemberTrades(trades: readonly DossierTrade[]): MemberTradeSummary[] {
  const byMember = new Map<number, MemberTradeSummary>();
  for (const trade of trades) {
    let summary = byMember.get(trade.politician_id);
    if (!summary) {
      summary = {
        politician_id: trade.politician_id,
        name: trade.politician_name,
        slug: trade.politician_slug,
        party: trade.party,
        chamber: trade.chamber,
        trade_count: 0,
        buys: 0,
        sells: 0,
        net_amount_mid: 0,
        net_direction: 'even',
        first_trade_date: trade.transaction_date,
        last_trade_date: trade.transaction_date,
        trade_ids: [],
      };
      byMember.set(trade.politician_id, summary);
    }
    summary.trade_count += 1;
    summary.trade_ids.push(trade.id);
    if (trade.trade_action === 'buy') {
      summary.buys += 1;
      summary.net_amount_mid += midpoint(trade);
    } else if (trade.trade_action === 'sell') {
      summary.sells += 1;
      summary.net_amount_mid -= midpoint(trade);
    }
    if (trade.transaction_date < summary.first_trade_date) summary.first_trade_date = trade.transaction_date;
    if (trade.transaction_date > summary.last_trade_date) summary.last_trade_date = trade.transaction_date;
  }
  const summaries = [...byMember.values()];
  for (const summary of summaries) summary.net_direction = directionOf(summary.net_amount_mid);
  return summaries.sort((a, b) => b.trade_count - a.trade_count || a.name.localeCompare(b.name));
}

export interface OverseeingCommittee {
  committee_id: string;
  /** The company's sector or industry is under the committee's jurisdiction. */
  by_sector: boolean;
  /** Agencies it lobbied or that awarded it contracts, which the committee oversees. */
  agencies: string[];
}

/** Committees overseeing the company, in id order. */
export function overseeingCommittees(
  sector: string | null,
  industry: string | null,
  agencies: readonly string[],
): OverseeingCommittee[] {
  const ids = [
    ...new Set([...Object.keys(COMMITTEE_JURISDICTIONS), ...Object.keys(COMMITTEE_OVERSIGHT)]),
  ].sort();
  const distinctAgencies = [...new Set(agencies)];
  return ids.flatMap((committeeId) => {
    const bySector = underJurisdiction([committeeId], sector, industry);
    const overseen = overseenAgencies(committeeId, distinctAgencies);
    return bySector || overseen.length > 0
      ? [{ committee_id: committeeId, by_sector: bySector, agencies: overseen }]
      : [];
  });
}
