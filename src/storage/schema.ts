// Table shapes as Kysely sees them. Dates are ISO strings (YYYY-MM-DD) and timestamps ISO 8601
// strings on both SQLite and PostgreSQL, so that the same code reads and compares them.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface PoliticiansTable {
  id: Generated<number>;
  slug: string;
  bioguide_id: string | null;
  lis_id: string | null;
  name: string;
  first_name: string | null;
  last_name: string | null;
  nickname: string | null;
  party: string | null;
  state: string | null;
  /** 'House' | 'Senate' | 'Executive' */
  chamber: string;
  district: string | null;
  /** Executive-branch filers: position title and agency. */
  title: string | null;
  agency: string | null;
  birthday: string | null;
  in_office: number;
  /** Where the record came from: 'legislators' or the dataset that created an unmatched filer. */
  origin: string;
  created_at: string;
  updated_at: string;
}

export interface PoliticianTermsTable {
  id: Generated<number>;
  politician_id: number;
  /** rep | sen | prez | viceprez */
  type: string;
  start_date: string | null;
  end_date: string | null;
  state: string | null;
  district: string | null;
  party: string | null;
}

export interface CommitteesTable {
  /** thomas id: 'HSAG', subcommittees 'HSAG15'. */
  id: string;
  name: string;
  chamber: string;
  parent_id: string | null;
  url: string | null;
  jurisdiction: string | null;
}

export interface CommitteeMembershipsTable {
  committee_id: string;
  politician_id: number;
  /** majority | minority */
  side: string | null;
  title: string | null;
  rank: number | null;
}

export interface CompaniesTable {
  ticker: string;
  name: string | null;
  cik: string | null;
  exchange: string | null;
  sector: string | null;
  industry: string | null;
  updated_at: string;
}

export interface BillsTable {
  /** "hr21-117": type, number, congress. */
  id: string;
  congress: number;
  bill_type: string;
  number: number;
  title: string;
  short_title: string | null;
  introduced_date: string | null;
  sponsor_bioguide_id: string | null;
  policy_area: string | null;
  latest_action_date: string | null;
  latest_action_text: string | null;
  url: string | null;
  updated_at: string;
}

export interface FilingsTable {
  id: Generated<number>;
  /** house_clerk | senate_efd | oge */
  source: string;
  /** The source's own document id (House DocID, eFD report UUID, OGE file name). */
  source_doc_id: string;
  /** PTR | annual | amendment | ... */
  kind: string;
  politician_id: number | null;
  filer_name: string | null;
  filed_date: string | null;
  url: string | null;
  is_paper: number;
  raw_sha256: string | null;
  /** parsed | paper | needs_ocr | unsupported | failed | pending | imported */
  parse_status: string;
  parse_reason: string | null;
  trade_count: number;
  amends_filing_id: number | null;
  /** 1 when the document says it amends an earlier report (eFD "(Amendment N)", House amended rows). */
  is_amendment: Generated<number>;
  amendment_number: number | null;
  /** eFD: the date in the title, which is the original report's filing date. */
  report_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface IngestDocumentsTable {
  source: string;
  source_doc_id: string;
  filing_id: number;
  /** listed | stored */
  status: string;
  url: string | null;
  /** JSON: what the index said about the document. */
  listing: string;
  attempts: number;
  last_error: string | null;
  /** JSON: what an amendment still has to find; null when nothing is pending. */
  pending_amendment: string | null;
  listed_at: string;
  stored_at: string | null;
  updated_at: string;
}

export interface IngestStateTable {
  source: string;
  cursor: string | null;
  last_status: string | null;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_error: string | null;
  updated_at: string;
}

export interface TradesTable {
  id: Generated<number>;
  politician_id: number;
  filing_id: number | null;
  /** house_clerk | senate_efd | oge */
  source: string;
  /** The row's identity at its source; unique per source (see ingest/trade-identity.ts). */
  source_key: string;
  /** Dataset or connector that first delivered the row. */
  origin: string;
  ticker: string;
  asset_description: string | null;
  asset_type: string | null;
  /** Display label: Buy, Sell, Sell (Partial), Exchange, Exercise, Expired. */
  trade_type: string;
  /** Normalized action for filtering: buy, sell, exchange, exercise, expired. */
  trade_action: string;
  amount_range: string | null;
  amount_low: number | null;
  amount_high: number | null;
  transaction_date: string;
  disclosure_date: string | null;
  days_to_disclose: number | null;
  owner: string | null;
  comment: string | null;
  option_type: string | null;
  strike_price: number | null;
  option_expiry: string | null;
  sector: string | null;
  industry: string | null;
  price_on_trade_date: number | null;
  price_on_disclosure: number | null;
  gain_7d: number | null;
  gain_30d: number | null;
  gain_60d: number | null;
  gain_90d: number | null;
  gain_1yr: number | null;
  alpha_30d: number | null;
  alpha_90d: number | null;
  alpha_1yr: number | null;
  public_gain_30d: number | null;
  public_gain_90d: number | null;
  public_gain_180d: number | null;
  public_alpha_30d: number | null;
  public_alpha_90d: number | null;
  public_alpha_180d: number | null;
  current_return: number | null;
  current_alpha: number | null;
  conviction_score: number | null;
  peer_z_score: number | null;
  is_ma_affected: number;
  enriched_at: string | null;
  superseded_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface TradeAliasesTable {
  source: string;
  source_key: string;
  trade_id: number;
  origin: string;
}

export interface AccountsTable {
  id: Generated<number>;
  email: string;
  /** none | core | pro | max */
  plan: string;
  /** Set while a plan runs on its free trial; the plan lapses to none after it. */
  trial_ends_at: string | null;
  /** Start of the current billing period (the monthly allowance renews each month from it). */
  period_start: string;
  /** Plan credits left in this period; spent first, not carried over. */
  allowance: number;
  /** Sign-up, granted and bought credits; spent after the allowance, never expire. */
  credits: number;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  account_id: number;
  /** SHA-256 of the key; the key itself is never stored. */
  key_hash: string;
  prefix: string;
  last4: string;
  name: string | null;
  daily_cap: number;
  /** UTC day (YYYY-MM-DD) that spent_today counts. */
  spent_day: string | null;
  spent_today: number;
  revoked_at: string | null;
  replaced_by: number | null;
  last_used_at: string | null;
  created_at: string;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: number;
  key_id: number | null;
  kind: string;
  amount: number;
  request_id: string | null;
  route: string | null;
  note: string | null;
  created_at: string;
}

export interface TopupsTable {
  id: Generated<number>;
  account_id: number;
  amount_cents: number;
  credits: number;
  paid_at: string;
  created_at: string;
}

export interface RequestLogTable {
  id: Generated<number>;
  account_id: number;
  key_id: number;
  request_id: string;
  method: string;
  route: string;
  status: number;
  charge: number;
  created_at: string;
}

export interface EventsTable {
  id: Generated<number>;
  type: string;
  subject_key: string;
  ticker: string | null;
  politician_slug: string | null;
  data: string;
  created_at: string;
}

export interface Database {
  politicians: PoliticiansTable;
  politician_terms: PoliticianTermsTable;
  committees: CommitteesTable;
  committee_memberships: CommitteeMembershipsTable;
  companies: CompaniesTable;
  bills: BillsTable;
  filings: FilingsTable;
  trades: TradesTable;
  trade_aliases: TradeAliasesTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  credit_ledger: CreditLedgerTable;
  topups: TopupsTable;
  request_log: RequestLogTable;
  events: EventsTable;
  ingest_documents: IngestDocumentsTable;
  ingest_state: IngestStateTable;
}

export type PoliticianRow = Selectable<PoliticiansTable>;
export type NewPolitician = Insertable<PoliticiansTable>;
export type TradeRow = Selectable<TradesTable>;
export type NewTrade = Insertable<TradesTable>;
export type TradeUpdate = Updateable<TradesTable>;
export type FilingRow = Selectable<FilingsTable>;
export type NewFiling = Insertable<FilingsTable>;
