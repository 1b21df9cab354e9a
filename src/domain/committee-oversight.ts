// Which federal agencies and which LDA general issue areas each committee's jurisdiction covers:
// the basis of the lobbying and contract links of GET /overlap, /conflict/{politician_id} and the
// dossier's overseeing members. Derived from the committees' written jurisdictions (House Rule X
// clause 1, Senate Rule XXV clause 1) and each agency's authorizing committee, kept to the agencies
// that lobbying filings contact and USAspending names as awarding agencies. Top-level committees
// only (subcommittee seats count as their parent's), and, as in committee-sectors.ts, committees
// whose jurisdiction spans every agency (Appropriations, Budget, Rules, Oversight) map to nothing
// so that sitting on them is not a link by itself.
//
// One pattern matches both spellings of an agency: the LDA's ("Defense, Dept of (DOD)") and
// USAspending's ("Department of Defense").

import { ownEntry } from './lookup.js';

export interface Oversight {
  /** Agencies overseen, matched against LDA government entities and contract awarding (sub-)agencies. */
  agencies: RegExp;
  /** LDA general issue area codes (src/domain/lda.ts) under the committee's jurisdiction. */
  issueCodes: readonly string[];
}

const DEFENSE = /defen[cs]e|\bDOD\b|\barmy\b|\bnavy\b|air force|marine corps|DARPA|missile defense/i;
const AGRICULTURE = /agricultur|\bUSDA\b|forest service|food safety|commodity futures|\bCFTC\b/i;
const FINANCE =
  /securities (and|&) exchange|\bSEC\b|federal reserve|deposit insurance|\bFDIC\b|comptroller of the currency|consumer financial protection|\bCFPB\b|housing (and|&) urban|\bHUD\b|federal housing finance|export-import/i;
const ENERGY_COMMERCE =
  /\benergy\b|\bDOE\b|\bFERC\b|nuclear regulatory|health (and|&) human services|\bHHS\b|food (and|&) drug|\bFDA\b|medicare|\bCMS\b|national institutes of health|\bNIH\b|centers for disease|federal communications|\bFCC\b|federal trade commission|\bFTC\b|environmental protection|\bEPA\b|consumer product safety/i;
const TRANSPORT =
  /transportation|\bDOT\b|federal aviation|\bFAA\b|highway|transit administration|railroad|maritime|army corps of engineers|coast guard|general services administration|\bGSA\b/i;
const SCIENCE =
  /national aeronautics|\bNASA\b|national science foundation|\bNSF\b|standards (and|&) technology|\bNIST\b|oceanic (and|&) atmospheric|\bNOAA\b|\benergy\b|\bDOE\b/i;
const VETERANS = /veterans/i;
const HOMELAND =
  /homeland security|\bDHS\b|customs (and|&) border|transportation security|\bTSA\b|federal emergency|\bFEMA\b|cybersecurity (and|&) infrastructure|\bCISA\b|secret service/i;
const TAX_HEALTH =
  /treasury|internal revenue|\bIRS\b|social security|medicare|\bCMS\b|customs (and|&) border|trade representative/i;
const NATURAL_RESOURCES =
  /interior|\bDOI\b|land management|\bBLM\b|fish (and|&) wildlife|national park|geological survey|reclamation|indian affairs|ocean energy|bureau of safety (and|&) environmental/i;
const EDUCATION_LABOR =
  /education|labor|\bDOL\b|occupational safety|\bOSHA\b|national labor relations|\bNLRB\b|employee benefits security|pension benefit/i;

export const COMMITTEE_OVERSIGHT: Readonly<Record<string, Oversight>> = {
  // House
  HSAG: { agencies: AGRICULTURE, issueCodes: ['AGR', 'FOO', 'CDT', 'ANI'] },
  HSAS: { agencies: DEFENSE, issueCodes: ['DEF', 'AER', 'INT'] },
  HSBA: { agencies: FINANCE, issueCodes: ['BAN', 'FIN', 'HOU', 'INS', 'MON', 'BNK'] },
  HSED: { agencies: EDUCATION_LABOR, issueCodes: ['EDU', 'LBR', 'RET'] },
  HSHM: { agencies: HOMELAND, issueCodes: ['HOM', 'DIS', 'IMM'] },
  HSIF: {
    agencies: ENERGY_COMMERCE,
    issueCodes: ['ENG', 'FUE', 'UTI', 'HCR', 'MMM', 'PHA', 'MED', 'TEC', 'COM', 'CSP', 'ENV', 'CAW'],
  },
  HSII: { agencies: NATURAL_RESOURCES, issueCodes: ['NAT', 'ENG', 'FUE', 'IND', 'MAR'] },
  HSPW: { agencies: TRANSPORT, issueCodes: ['TRA', 'AVI', 'ROD', 'RRR', 'TRU', 'MAR', 'CAW'] },
  HSSY: { agencies: SCIENCE, issueCodes: ['SCI', 'AER', 'ENG', 'CPI'] },
  HSVR: { agencies: VETERANS, issueCodes: ['VET'] },
  HSWM: { agencies: TAX_HEALTH, issueCodes: ['TAX', 'TRD', 'TAR', 'MMM', 'HCR', 'RET'] },
  HLIG: {
    agencies: /intelligence|national security agency|\bNSA\b|central intelligence|\bCIA\b/i,
    issueCodes: ['INT'],
  },
  // Senate
  SSAF: { agencies: AGRICULTURE, issueCodes: ['AGR', 'FOO', 'CDT', 'ANI'] },
  SSAS: { agencies: DEFENSE, issueCodes: ['DEF', 'AER', 'INT'] },
  SSBK: { agencies: FINANCE, issueCodes: ['BAN', 'FIN', 'HOU', 'INS', 'MON', 'BNK', 'URB'] },
  SSCM: {
    agencies:
      /commerce|federal communications|\bFCC\b|federal trade commission|\bFTC\b|transportation|\bDOT\b|federal aviation|\bFAA\b|national aeronautics|\bNASA\b|oceanic (and|&) atmospheric|\bNOAA\b|standards (and|&) technology|consumer product safety/i,
    issueCodes: ['COM', 'TEC', 'CSP', 'AVI', 'TRA', 'RRR', 'TRU', 'SCI', 'AER', 'MAR', 'TOU', 'SPO'],
  },
  SSEG: {
    agencies:
      /\benergy\b|\bDOE\b|\bFERC\b|nuclear regulatory|interior|\bDOI\b|land management|geological survey|national park|forest service/i,
    issueCodes: ['ENG', 'FUE', 'UTI', 'NAT', 'RES'],
  },
  SSEV: {
    agencies:
      /environmental protection|\bEPA\b|army corps of engineers|fish (and|&) wildlife|federal highway|nuclear regulatory/i,
    issueCodes: ['ENV', 'CAW', 'ROD', 'WAS'],
  },
  SSFI: { agencies: TAX_HEALTH, issueCodes: ['TAX', 'TRD', 'TAR', 'MMM', 'HCR', 'RET'] },
  SSHR: {
    agencies:
      /health (and|&) human services|\bHHS\b|food (and|&) drug|\bFDA\b|national institutes of health|\bNIH\b|centers for disease|education|labor|\bDOL\b|occupational safety|\bOSHA\b|national labor relations/i,
    issueCodes: ['HCR', 'MED', 'PHA', 'EDU', 'LBR', 'RET'],
  },
  SSVA: { agencies: VETERANS, issueCodes: ['VET'] },
  SLIN: {
    agencies: /intelligence|national security agency|\bNSA\b|central intelligence|\bCIA\b/i,
    issueCodes: ['INT'],
  },
  SPAG: {
    agencies: /social security|administration (for|on) (community living|aging)/i,
    issueCodes: ['MMM', 'RET'],
  },
  SSGA: { agencies: HOMELAND, issueCodes: ['HOM', 'GOV', 'POS', 'DIS'] },
};

/** The LDA's names for the two chambers, as filings list them among the entities contacted. */
export const CHAMBER_ENTITIES: Readonly<Record<string, RegExp>> = {
  House: /^house of representatives$/i,
  Senate: /^senate$/i,
};

/** The committee's chamber from its thomas id (HS.., HL.. House; SS.., SL.., SP.. Senate; J.. joint). */
export function committeeChamber(committeeId: string): 'House' | 'Senate' | null {
  if (committeeId.startsWith('H')) return 'House';
  if (committeeId.startsWith('S')) return 'Senate';
  return null;
}

/** Agencies among these names (LDA entities or awarding agencies) that the committee oversees. */
export function overseenAgencies(committeeId: string, names: readonly string[]): string[] {
  const oversight = ownEntry(COMMITTEE_OVERSIGHT, committeeId);
  if (!oversight) return [];
  return names.filter((name) => !isChamberEntity(name) && oversight.agencies.test(name));
}

function isChamberEntity(name: string): boolean {
  return Object.values(CHAMBER_ENTITIES).some((pattern) => pattern.test(name.trim()));
}

/**
 * Why a lobbying filing reaches a committee: the overseen agencies it contacted, or its issue codes
 * under the committee's jurisdiction when it also contacted the committee's chamber. Empty when neither.
 */
export function lobbyingReach(
  committeeId: string,
  entities: readonly string[],
  issueCodes: readonly string[],
): { agencies: string[]; issueCodes: string[] } {
  const oversight = ownEntry(COMMITTEE_OVERSIGHT, committeeId);
  if (!oversight) return { agencies: [], issueCodes: [] };
  const agencies = overseenAgencies(committeeId, entities);
  const chamber = committeeChamber(committeeId);
  const chamberPattern = chamber ? CHAMBER_ENTITIES[chamber] : undefined;
  const contactedChamber =
    chamberPattern !== undefined && entities.some((name) => chamberPattern.test(name.trim()));
  const codes = contactedChamber ? issueCodes.filter((code) => oversight.issueCodes.includes(code)) : [];
  return { agencies, issueCodes: [...new Set(codes)] };
}
