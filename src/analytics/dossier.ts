// The pure parts of the company dossier (GET /companies/{ticker}): the members' trade totals (which
// the database sums, repositories/dossier-trades.ts) ordered and given their net direction, and which
// committees oversee the company (by its sector or industry, and by the agencies it lobbied or that
// awarded it contracts). Method in docs/analytics-links.md.

import { COMMITTEE_OVERSIGHT, overseenAgencies } from '../domain/committee-oversight.js';
import { COMMITTEE_JURISDICTIONS, underJurisdiction } from '../domain/committee-sectors.js';
import { pick } from '../domain/pick.js';
import type { MemberTradeTotalsRow } from '../storage/repositories/dossier-trades.js';

export type NetDirection = 'buy' | 'sell' | 'even';

export interface MemberTradeSummary extends MemberTradeTotalsRow {
  net_direction: NetDirection;
}

export function directionOf(net: number): NetDirection {
  return net > 0 ? 'buy' : net < 0 ? 'sell' : 'even';
}

/** A member's totals that the answer lists before the net direction, in the schema's order. */
const MEMBER_TOTALS_BEFORE_DIRECTION = [
  'politician_id',
  'name',
  'slug',
  'party',
  'chamber',
  'trade_count',
  'buys',
  'sells',
  'net_amount_mid',
] as const;

/** The members' totals (repositories/dossier-trades.ts), most trades first (then name), with the net direction. */
export function summarizeMemberTrades(totals: readonly MemberTradeTotalsRow[]): MemberTradeSummary[] {
  // The fields in the order the dossier's schema lists them: the stored answers are this object's
  // JSON text, which must be the text the route's serializer writes.
  return totals
    .map((member) => ({
      ...pick(member, MEMBER_TOTALS_BEFORE_DIRECTION),
      net_direction: directionOf(member.net_amount_mid),
      ...pick(member, ['first_trade_date', 'last_trade_date', 'trade_ids']),
    }))
    .sort((a, b) => b.trade_count - a.trade_count || a.name.localeCompare(b.name));
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
