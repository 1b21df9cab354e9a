// The tables of the public records beside the disclosures: Senate LDA lobbying filings, USAspending
// contract awards, and SEC EDGAR filings with their insider trades and 13D/G positions.
import type { Generated } from 'kysely';
import type { CompanyLinkMethod } from './market.js';

/**
 * What a lobbying filing and a contract award both carry (migration 0009-lobbying-contracts): the
 * company it is linked to and how, and where the record came from.
 */
interface CompanyLinkedRecord {
  ticker: string | null;
  match_method: CompanyLinkMethod | null;
  match_confidence: number | null;
  origin: string;
  content_hash: string;
  raw_sha256: string | null;
  created_at: string;
  updated_at: string;
}

/** Senate LDA filings (migration 0009-lobbying-contracts). */
export interface LobbyingFilingsTable extends CompanyLinkedRecord {
  id: Generated<number>;
  filing_uuid: string;
  filing_type: string;
  filing_type_display: string;
  filing_year: number;
  filing_period: string | null;
  no_activity: number;
  registrant_id: string | null;
  registrant_name: string;
  registrant_description: string | null;
  client_id: string | null;
  client_name: string;
  client_description: string | null;
  income: string | null;
  expenses: string | null;
  amount: number | null;
  posted_at: string | null;
  filed_date: string | null;
  document_url: string | null;
  /** JSON */
  issues: string;
  /** JSON */
  lobbyists: string;
  /** JSON */
  government_entities: string;
}

export interface LobbyingIssuesTable {
  filing_id: number;
  code: string;
}

/** USAspending contract awards (migration 0009-lobbying-contracts). */
export interface ContractAwardsTable extends CompanyLinkedRecord {
  id: Generated<number>;
  award_key: string;
  award_id: string;
  recipient_name: string;
  recipient_uei: string | null;
  parent_name: string | null;
  parent_uei: string | null;
  amount: number | null;
  awarding_agency: string | null;
  awarding_sub_agency: string | null;
  award_date: string | null;
  start_date: string | null;
  end_date: string | null;
  award_type: string | null;
  description: string | null;
  naics_code: string | null;
  naics_description: string | null;
  psc_code: string | null;
  psc_description: string | null;
  place_city: string | null;
  place_state: string | null;
  place_country: string | null;
}

/** One EDGAR filing (Forms 3/4/5, Schedules 13D/13G) by accession number (migration 0008). */
export interface SecFilingsTable {
  id: Generated<number>;
  accession_number: string;
  form: string;
  filed_date: string | null;
  period_of_report: string | null;
  issuer_cik: string | null;
  issuer_name: string | null;
  /** listed | parsed | unsupported | failed */
  status: string;
  reason: string | null;
  url: string | null;
  content_hash: string | null;
  attempts: Generated<number>;
  created_at: string;
  updated_at: string;
}

/**
 * What every row of a line table of an SEC filing holds: the filing, and the line, unique with
 * the accession number (sec.ts upserts both tables on that pair).
 */
interface SecFilingLine {
  id: Generated<number>;
  sec_filing_id: number;
  accession_number: string;
  line: number;
  form: string;
  filed_date: string | null;
}

/** One Form 3/4/5 transaction line. */
export interface InsiderTradesTable extends SecFilingLine {
  table_kind: string;
  issuer_cik: string | null;
  issuer_name: string | null;
  ticker: string | null;
  insider_cik: string | null;
  insider_name: string;
  insider_title: string | null;
  is_director: number;
  is_officer: number;
  is_ten_percent_owner: number;
  owners: string;
  security: string | null;
  transaction_date: string | null;
  code: string | null;
  shares: number | null;
  price: number | null;
  total_value: number | null;
  acquired_disposed: string | null;
  shares_after: number | null;
  direct_indirect: string | null;
  ten_b5_1: number;
  footnotes: string;
  overlap_from: string | null;
  overlap_to: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * What a Schedule 13D/13G cover page states of each reporting person's holding: its voting and
 * dispositive powers, the shares it owns and their percent of the class. The parser reads them
 * under these names and they are stored as read.
 */
export interface ScheduleHoldings {
  sole_voting: number | null;
  shared_voting: number | null;
  sole_dispositive: number | null;
  shared_dispositive: number | null;
  aggregate_amount: number | null;
  percent_of_class: number | null;
}

/** One reporting person of a Schedule 13D/13G. */
export interface WhalePositionsTable extends SecFilingLine, ScheduleHoldings {
  event_date: string | null;
  amendment_number: number | null;
  issuer_cik: string | null;
  issuer_cusip: string | null;
  issuer_name: string | null;
  ticker: string | null;
  filer_name: string;
  filer_cik: string | null;
  person_type: string | null;
  is_lead: number;
  created_at: string;
  updated_at: string;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface RecordsTables {
  lobbying_filings: LobbyingFilingsTable;
  lobbying_issues: LobbyingIssuesTable;
  contract_awards: ContractAwardsTable;
  sec_filings: SecFilingsTable;
  insider_trades: InsiderTradesTable;
  whale_positions: WhalePositionsTable;
}
