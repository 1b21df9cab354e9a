// Which GICS sectors (and industries) each committee's jurisdiction covers: the basis of
// conflict_score and of conviction_score's committee relevance. Top-level committees only;
// subcommittee seats count as their parent's. Committees whose jurisdiction spans everything
// (Appropriations, Budget, Rules, Ethics, Judiciary, Foreign Affairs, Oversight, joint committees)
// map to nothing rather than to every sector, so that sitting on them is not a conflict by itself.

import { ownEntry } from './lookup.js';

export interface Jurisdiction {
  sectors: readonly string[];
  /** GICS sub-industries (or Nasdaq industries) matched by name, beyond whole sectors. */
  industries?: RegExp;
}

const DEFENSE = /aerospace|defen[cs]e/i;

export const COMMITTEE_JURISDICTIONS: Readonly<Record<string, Jurisdiction>> = {
  // House
  HSAG: { sectors: ['Consumer Staples'], industries: /agricultur|fertilizer|farm|food/i },
  HSAS: { sectors: [], industries: DEFENSE },
  HSBA: { sectors: ['Financials', 'Real Estate'] },
  HSED: { sectors: [], industries: /education/i },
  HSHM: { sectors: [], industries: DEFENSE },
  HSIF: { sectors: ['Energy', 'Utilities', 'Health Care', 'Communication Services'] },
  HSII: { sectors: ['Energy', 'Materials'] },
  HSPW: { sectors: ['Industrials'], industries: /water utilit/i },
  HSSY: { sectors: ['Information Technology'], industries: DEFENSE },
  HSVR: { sectors: ['Health Care'] },
  HSWM: { sectors: ['Health Care'], industries: /insurance/i },
  HLIG: { sectors: [], industries: DEFENSE },
  // Senate
  SSAF: { sectors: ['Consumer Staples'], industries: /agricultur|fertilizer|farm|food/i },
  SSAS: { sectors: [], industries: DEFENSE },
  SSBK: { sectors: ['Financials', 'Real Estate'] },
  SSCM: {
    sectors: ['Communication Services', 'Information Technology', 'Industrials', 'Consumer Discretionary'],
  },
  SSEG: { sectors: ['Energy', 'Utilities', 'Materials'] },
  SSEV: { sectors: ['Utilities', 'Materials'], industries: /construction|engineering/i },
  SSFI: { sectors: ['Health Care'], industries: /insurance/i },
  SSHR: { sectors: ['Health Care'], industries: /education/i },
  SSVA: { sectors: ['Health Care'] },
  SLIN: { sectors: [], industries: DEFENSE },
  SPAG: { sectors: ['Health Care'] },
  SSGA: { sectors: [], industries: DEFENSE },
};

/** Does a trade in this sector/industry fall under any of these (top-level) committees? */
export function underJurisdiction(
  committees: readonly string[],
  sector: string | null,
  industry: string | null,
): boolean {
  for (const committee of committees) {
    const jurisdiction = ownEntry(COMMITTEE_JURISDICTIONS, committee);
    if (!jurisdiction) continue;
    if (sector !== null && jurisdiction.sectors.includes(sector)) return true;
    if (industry !== null && jurisdiction.industries?.test(industry)) return true;
  }
  return false;
}
