// FEC bulk data files: pipe-delimited, no header row (the FEC publishes the column lists as
// separate `*_header_file.csv` files). Pure: a line in, a record out; the importer streams.

export type FecFileKind =
  | 'candidates'
  | 'committees'
  | 'linkages'
  | 'committee_contributions'
  | 'individual_contributions'
  | 'candidate_totals';

// Committee-to-candidate and individual contributions are both itemized receipts: one layout, to
// which the committee file adds the receiving candidate's id after OTHER_ID.
const ITEMIZED_HEAD = [
  'CMTE_ID',
  'AMNDT_IND',
  'RPT_TP',
  'TRANSACTION_PGI',
  'IMAGE_NUM',
  'TRANSACTION_TP',
  'ENTITY_TP',
  'NAME',
  'CITY',
  'STATE',
  'ZIP_CODE',
  'EMPLOYER',
  'OCCUPATION',
  'TRANSACTION_DT',
  'TRANSACTION_AMT',
  'OTHER_ID',
];
const ITEMIZED_TAIL = ['TRAN_ID', 'FILE_NUM', 'MEMO_CD', 'MEMO_TEXT', 'SUB_ID'];

// The FEC's documented layouts, the same lists its header files give; a header file found beside
// the data wins (and a different one is reported), so a layout change does not go unnoticed.
export const FEC_COLUMNS: Record<FecFileKind, readonly string[]> = {
  candidates: [
    'CAND_ID',
    'CAND_NAME',
    'CAND_PTY_AFFILIATION',
    'CAND_ELECTION_YR',
    'CAND_OFFICE_ST',
    'CAND_OFFICE',
    'CAND_OFFICE_DISTRICT',
    'CAND_ICI',
    'CAND_STATUS',
    'CAND_PCC',
    'CAND_ST1',
    'CAND_ST2',
    'CAND_CITY',
    'CAND_ST',
    'CAND_ZIP',
  ],
  committees: [
    'CMTE_ID',
    'CMTE_NM',
    'TRES_NM',
    'CMTE_ST1',
    'CMTE_ST2',
    'CMTE_CITY',
    'CMTE_ST',
    'CMTE_ZIP',
    'CMTE_DSGN',
    'CMTE_TP',
    'CMTE_PTY_AFFILIATION',
    'CMTE_FILING_FREQ',
    'ORG_TP',
    'CONNECTED_ORG_NM',
    'CAND_ID',
  ],
  linkages: [
    'CAND_ID',
    'CAND_ELECTION_YR',
    'FEC_ELECTION_YR',
    'CMTE_ID',
    'CMTE_TP',
    'CMTE_DSGN',
    'LINKAGE_ID',
  ],
  committee_contributions: [...ITEMIZED_HEAD, 'CAND_ID', ...ITEMIZED_TAIL],
  individual_contributions: [...ITEMIZED_HEAD, ...ITEMIZED_TAIL],
  // The all-candidates summary (weball) and the current House/Senate campaigns summary (webl) share a layout.
  candidate_totals: [
    'CAND_ID',
    'CAND_NAME',
    'CAND_ICI',
    'PTY_CD',
    'CAND_PTY_AFFILIATION',
    'TTL_RECEIPTS',
    'TRANS_FROM_AUTH',
    'TTL_DISB',
    'TRANS_TO_AUTH',
    'COH_BOP',
    'COH_COP',
    'CAND_CONTRIB',
    'CAND_LOANS',
    'OTHER_LOANS',
    'CAND_LOAN_REPAY',
    'OTHER_LOAN_REPAY',
    'DEBTS_OWED_BY',
    'TTL_INDIV_CONTRIB',
    'CAND_OFFICE_ST',
    'CAND_OFFICE_DISTRICT',
    'SPEC_ELECTION',
    'PRIM_ELECTION',
    'RUN_ELECTION',
    'GEN_ELECTION',
    'GEN_ELECTION_PRECENT',
    'OTHER_POL_CMTE_CONTRIB',
    'POL_PTY_CONTRIB',
    'CVG_END_DT',
    'INDIV_REFUNDS',
    'CMTE_REFUNDS',
  ],
};

/** Header files as the FEC names them, per kind. */
export const FEC_HEADER_FILES: Record<FecFileKind, string | null> = {
  candidates: 'cn_header_file.csv',
  committees: 'cm_header_file.csv',
  linkages: 'ccl_header_file.csv',
  committee_contributions: 'pas2_header_file.csv',
  individual_contributions: 'indiv_header_file.csv',
  candidate_totals: null,
};

export interface FecFileInfo {
  kind: FecFileKind;
  /** The two-year cycle a summary file covers (weball24 → 2024); null when the rows carry their own. */
  cycle: number | null;
}

/** Which bulk file a name is, from the FEC's file names (cn, cm, ccl, itpas2, itcont, weballYY, weblYY). */
export function fecFileKind(fileName: string): FecFileInfo | null {
  const name = fileName.toLowerCase();
  if (!name.endsWith('.txt')) return null;
  const base = name.slice(0, -4);
  const summary = /^web(?:all|l)(\d\d)$/.exec(base);
  if (summary) return { kind: 'candidate_totals', cycle: 2000 + Number(summary[1]) };
  if (/^cn(\d\d)?$/.test(base)) return { kind: 'candidates', cycle: null };
  if (/^cm(\d\d)?$/.test(base)) return { kind: 'committees', cycle: null };
  if (/^ccl(\d\d)?$/.test(base)) return { kind: 'linkages', cycle: null };
  if (/^itpas2/.test(base)) return { kind: 'committee_contributions', cycle: null };
  if (/^itcont/.test(base)) return { kind: 'individual_contributions', cycle: null };
  return null;
}

export class FecFormatError extends Error {}

export interface FecCandidate {
  id: string;
  name: string;
  party: string | null;
  electionYear: number | null;
  officeState: string | null;
  /** H | S | P */
  office: string | null;
  district: string | null;
  /** I incumbent, C challenger, O open seat. */
  incumbentChallenger: string | null;
  status: string | null;
  principalCommitteeId: string | null;
}

export interface FecCommittee {
  id: string;
  name: string;
  designation: string | null;
  type: string | null;
  party: string | null;
  /** The company, union or association behind a separate segregated fund (a corporate PAC). */
  connectedOrgName: string | null;
  candidateId: string | null;
}

export interface FecLinkage {
  linkageId: string;
  candidateId: string;
  candidateElectionYear: number | null;
  cycle: number | null;
  committeeId: string;
  committeeType: string | null;
  designation: string | null;
}

export interface FecCommitteeContribution {
  subId: string;
  /** The giving committee. */
  committeeId: string;
  /** Null on some rows that name only the receiving committee (OTHER_ID). */
  candidateId: string | null;
  /** The receiving committee. */
  recipientCommitteeId: string | null;
  transactionType: string | null;
  entityType: string | null;
  name: string | null;
  date: string | null;
  cycle: number | null;
  amount: number;
  memo: boolean;
}

export interface FecIndividualContribution {
  subId: string;
  committeeId: string;
  employer: string | null;
  occupation: string | null;
  date: string | null;
  cycle: number | null;
  amount: number;
  transactionType: string | null;
  /** Memo entries repeat money reported on another line (earmarks, partnership attributions). */
  memo: boolean;
}

export interface FecCandidateTotals {
  candidateId: string;
  cycle: number;
  name: string;
  party: string | null;
  receipts: number;
  disbursements: number;
  cashOnHand: number;
  debts: number;
  individualContributions: number;
  pacContributions: number;
  partyContributions: number;
  candidateContributions: number;
  coverageEndDate: string | null;
}

type Fields = Record<string, string>;

/** Splits one line into named fields; the FEC pads nothing, so a short line is a damaged one. */
export function splitFecLine(columns: readonly string[], line: string): Fields | null {
  const values = line.replace(/\r$/, '').split('|');
  if (values.length !== columns.length) return null;
  const fields: Fields = {};
  columns.forEach((column, index) => {
    fields[column] = (values[index] ?? '').trim();
  });
  return fields;
}

/** Reads a header file's one line of column names. */
export function readFecHeader(content: string): string[] {
  const line = content.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  const columns = line
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (columns.length === 0) throw new FecFormatError('empty header file');
  return columns;
}

function nullable(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

function year(value: string | undefined): number | null {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 1900 ? n : null;
}

function money(value: string | undefined): number {
  const n = Number(value);
  return value && Number.isFinite(n) ? n : 0;
}

/** MMDDYYYY (contributions) or MM/DD/YYYY (summaries) → YYYY-MM-DD. */
export function fecDate(value: string | undefined): string | null {
  const match = value ? /^(\d\d)\/?(\d\d)\/?(\d{4})$/.exec(value) : null;
  return match ? `${match[3]}-${match[1]}-${match[2]}` : null;
}

/** The two-year election cycle a date falls in, named by its even year. */
export function cycleOf(isoDate: string | null): number | null {
  if (!isoDate) return null;
  const y = Number(isoDate.slice(0, 4));
  return y % 2 === 0 ? y : y + 1;
}

export function toCandidate(f: Fields): FecCandidate | null {
  if (!f.CAND_ID || !f.CAND_NAME) return null;
  return {
    id: f.CAND_ID,
    name: f.CAND_NAME,
    party: nullable(f.CAND_PTY_AFFILIATION),
    electionYear: year(f.CAND_ELECTION_YR),
    officeState: nullable(f.CAND_OFFICE_ST),
    office: nullable(f.CAND_OFFICE),
    district: nullable(f.CAND_OFFICE_DISTRICT),
    incumbentChallenger: nullable(f.CAND_ICI),
    status: nullable(f.CAND_STATUS),
    principalCommitteeId: nullable(f.CAND_PCC),
  };
}

export function toCommittee(f: Fields): FecCommittee | null {
  if (!f.CMTE_ID || !f.CMTE_NM) return null;
  return {
    id: f.CMTE_ID,
    name: f.CMTE_NM,
    designation: nullable(f.CMTE_DSGN),
    type: nullable(f.CMTE_TP),
    party: nullable(f.CMTE_PTY_AFFILIATION),
    connectedOrgName: nullable(f.CONNECTED_ORG_NM),
    candidateId: nullable(f.CAND_ID),
  };
}

export function toLinkage(f: Fields): FecLinkage | null {
  if (!f.LINKAGE_ID || !f.CAND_ID || !f.CMTE_ID) return null;
  return {
    linkageId: f.LINKAGE_ID,
    candidateId: f.CAND_ID,
    candidateElectionYear: year(f.CAND_ELECTION_YR),
    cycle: year(f.FEC_ELECTION_YR),
    committeeId: f.CMTE_ID,
    committeeType: nullable(f.CMTE_TP),
    designation: nullable(f.CMTE_DSGN),
  };
}

export function toCommitteeContribution(f: Fields): FecCommitteeContribution | null {
  if (!f.SUB_ID || !f.CMTE_ID || (!f.CAND_ID && !f.OTHER_ID)) return null;
  const date = fecDate(f.TRANSACTION_DT);
  return {
    subId: f.SUB_ID,
    committeeId: f.CMTE_ID,
    candidateId: nullable(f.CAND_ID),
    recipientCommitteeId: nullable(f.OTHER_ID),
    transactionType: nullable(f.TRANSACTION_TP),
    entityType: nullable(f.ENTITY_TP),
    name: nullable(f.NAME),
    date,
    cycle: cycleOf(date),
    amount: money(f.TRANSACTION_AMT),
    memo: f.MEMO_CD === 'X',
  };
}

export function toIndividualContribution(f: Fields): FecIndividualContribution | null {
  if (!f.SUB_ID || !f.CMTE_ID) return null;
  const date = fecDate(f.TRANSACTION_DT);
  return {
    subId: f.SUB_ID,
    committeeId: f.CMTE_ID,
    employer: nullable(f.EMPLOYER),
    occupation: nullable(f.OCCUPATION),
    date,
    cycle: cycleOf(date),
    amount: money(f.TRANSACTION_AMT),
    transactionType: nullable(f.TRANSACTION_TP),
    memo: f.MEMO_CD === 'X',
  };
}

export function toCandidateTotals(f: Fields, cycle: number): FecCandidateTotals | null {
  if (!f.CAND_ID || !f.CAND_NAME) return null;
  return {
    candidateId: f.CAND_ID,
    cycle,
    name: f.CAND_NAME,
    party: nullable(f.CAND_PTY_AFFILIATION),
    receipts: money(f.TTL_RECEIPTS),
    disbursements: money(f.TTL_DISB),
    cashOnHand: money(f.COH_COP),
    debts: money(f.DEBTS_OWED_BY),
    individualContributions: money(f.TTL_INDIV_CONTRIB),
    pacContributions: money(f.OTHER_POL_CMTE_CONTRIB),
    partyContributions: money(f.POL_PTY_CONTRIB),
    candidateContributions: money(f.CAND_CONTRIB),
    coverageEndDate: fecDate(f.CVG_END_DT),
  };
}
