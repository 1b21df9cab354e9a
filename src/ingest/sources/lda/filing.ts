// One Senate LDA filing (an LD-1 registration or an LD-2 quarterly report) as both of its public
// forms describe it: the REST API (`/api/v1/filings/`, JSON) and the Senate's bulk download (XML).
// The two spell some things differently (the API names issues by a 3-letter code, the XML by the
// full name in capitals; the API's filing type is a code, the XML's a phrase); the readers map
// both onto this one shape.
import { LDA_ISSUE_CODES } from '../../../domain/lda.js';

export { FILING_PERIODS, LDA_ISSUE_CODES } from '../../../domain/lda.js';

export interface LobbyingIssue {
  /** General issue area code (TAX, DEF, HCR ...); null when the name is not in the LDA list. */
  code: string | null;
  /** The issue area's name as the LDA list spells it. */
  name: string;
  /** The filer's specific issues text. */
  description: string | null;
}

export interface LobbyistEntry {
  /** "FIRST LAST" from the API, "LAST, FIRST" as the XML writes it. */
  name: string;
  /** The covered (former government) positions the lobbyist declared, as written; null when none. */
  coveredPosition: string | null;
  /** First time on a filing for this client (API `new`); null when the source does not say. */
  isNew: boolean | null;
}

export interface LobbyingFilingRecord {
  /** The filing UUID, lower case (the XML writes it upper case). */
  filingUuid: string;
  /** LDA filing type code: RR registration, RA registration amendment, Q1..Q4 reports, 1A..4A amendments, 1T..4T terminations. */
  filingType: string;
  filingTypeDisplay: string;
  filingYear: number;
  /** first_quarter | second_quarter | third_quarter | fourth_quarter | mid_year | year_end; null when undetermined. */
  filingPeriod: string | null;
  /** The report said "no activity" for the period. */
  noActivity: boolean;
  registrantId: string | null;
  registrantName: string;
  registrantDescription: string | null;
  /** The API's global client id; the XML's client ids are registrant-scoped and are kept with the registrant's. */
  clientId: string | null;
  clientName: string;
  clientDescription: string | null;
  /** Income (lobbying firms) as the decimal string the source gives, or null. */
  income: string | null;
  /** Expenses (self-filers) as a decimal string, or null. */
  expenses: string | null;
  /** When the filing was posted/received: ISO timestamp as the source writes it. */
  postedAt: string | null;
  /** The filing as a document on the Senate/LDA site. */
  documentUrl: string | null;
  issues: LobbyingIssue[];
  lobbyists: LobbyistEntry[];
  /** Chambers, committees and agencies contacted, trimmed and without repeats. */
  governmentEntities: string[];
  origin: 'lda_api' | 'senate_bulk_xml';
}

const CODE_BY_NAME = new Map(
  Object.entries(LDA_ISSUE_CODES).map(([code, name]) => [issueNameKey(name), code] as const),
);

function issueNameKey(name: string): string {
  return name.toUpperCase().replace(/\s+/g, ' ').trim();
}

/** The code of an issue area named in full ("TAXATION/INTERNAL REVENUE CODE" -> TAX), or null. */
export function issueCodeOfName(name: string): string | null {
  return CODE_BY_NAME.get(issueNameKey(name)) ?? null;
}

/** The amount a filing reports: income for a firm, expenses for a self-filer; null when neither. */
export function filingAmount(record: Pick<LobbyingFilingRecord, 'income' | 'expenses'>): number | null {
  const text = record.income ?? record.expenses;
  if (text === null) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** A decimal string as the source gave it, or null for blanks; throws on anything else. */
export function decimalText(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim().replace(/,/g, '');
  if (text === '') return null;
  if (!/^-?\d+(\.\d+)?$/.test(text))
    throw new LdaFormatError(`${field} is not a decimal: "${String(value)}"`);
  return text;
}

export class LdaFormatError extends Error {}
