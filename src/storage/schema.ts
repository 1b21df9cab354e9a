// Table shapes as Kysely sees them. Dates are ISO strings (YYYY-MM-DD) and timestamps ISO 8601
// strings on both SQLite and PostgreSQL, so that the same code reads and compares them.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { LedgerKind } from './ledger-kinds.js';

export interface PoliticiansTable {
  id: Generated<number>;
  slug: string;
  bioguide_id: string | null;
  lis_id: string | null;
  name: string;
  first_name: string | null;
  last_name: string | null;
  nickname: string | null;
  /** D, R or I (domain/party.ts). */
  party: string | null;
  /** The party's full name as the roster gives it (0018-hardening); optional on insert. */
  party_name: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** Executive filers: dates of service their 278e reports state, YYYY-MM-DD or YYYY-MM (0062). */
  service_start: ColumnType<string | null, string | null | undefined, string | null>;
  service_end: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** Canonical symbol (class shares with a dot: BRK.B). */
  ticker: string;
  name: string | null;
  cik: string | null;
  exchange: string | null;
  /** GICS sector where the S&P 500 list has the company, else Nasdaq's sector mapped to GICS names. */
  sector: string | null;
  /** GICS sub-industry, else Nasdaq's industry. */
  industry: string | null;
  updated_at: string;
  share_class: string | null;
  gics_sector: string | null;
  gics_sub_industry: string | null;
  nasdaq_sector: string | null;
  nasdaq_industry: string | null;
  /** Which file `sector` / `industry` came from. */
  sector_source: string | null;
  industry_source: string | null;
  /** Comma list of the directories that list the ticker. */
  sources: string | null;
  is_etf: Generated<number>;
}

export interface CompanyListingsTable {
  /** The directory file the row came from (its name); re-importing a file replaces its rows. */
  origin: string;
  ticker: string;
  /** sp500 | sp500_snapshot | sec | sec_exchange | sec_submissions | nasdaq_screener | nasdaqtrader | ticker_list */
  source: string;
  name: string | null;
  /** Normalized for matching asset descriptions (see market/company-names.ts). */
  name_key: string | null;
  share_class: string | null;
  cik: string | null;
  exchange: string | null;
  gics_sector: string | null;
  gics_sub_industry: string | null;
  nasdaq_sector: string | null;
  nasdaq_industry: string | null;
  is_etf: number;
  /** 1 for common equity and ETFs; 0 for preferreds, warrants, units, notes. */
  common: number;
  imported_at: string;
}

export interface PriceBarsTable {
  symbol: string;
  source: string;
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  adj_close: number;
  volume: number | null;
}

export interface PriceSeriesTable {
  symbol: string;
  source: string;
  format: string;
  /** raw | split-adjusted | adjusted | none: what the source's `close` is. */
  close_basis: string;
  priority: number;
  first_date: string;
  last_date: string;
  bar_count: number;
  origin: string | null;
  /** Last time any bar was added or changed. */
  updated_at: string;
  /** Last time a bar before the previous last date was added or changed. */
  history_changed_at: string;
}

export interface CorporateActionsTable {
  symbol: string;
  source: string;
  date: string;
  /** split | adjustment | dividend */
  kind: string;
  value: number;
}

export interface PriceFlagsTable {
  symbol: string;
  source: string;
  date: string;
  /** spike_reversal | source_disagreement | unadjusted_split | gap */
  kind: string;
  detail: string;
  detected_at: string;
}

export interface PriceFetchesTable {
  symbol: string;
  fetched_at: string;
  /** ok | not_found | error */
  status: string;
  bars: Generated<number>;
  detail: string | null;
}

export interface TickerResolutionsTable {
  trade_id: number;
  filed_ticker: string;
  /** The ticker now on the trade; null when unresolved or ambiguous. */
  ticker: string | null;
  /** resolved | respelled | ambiguous | unresolved | not_equity */
  status: string;
  method: string | null;
  source: string | null;
  candidates: string | null;
  detail: string | null;
  resolved_at: string;
}

export interface PoliticianStatsTable {
  politician_id: number;
  win_rate: number | null;
  avg_alpha_30d: number | null;
  avg_alpha_90d: number | null;
  sharpe_ratio: number | null;
  sharpe_ratio_low: number | null;
  sharpe_ratio_high: number | null;
  portfolio_return: number | null;
  portfolio_return_low: number | null;
  portfolio_return_high: number | null;
  cagr: number | null;
  cagr_low: number | null;
  cagr_high: number | null;
  conflict_score: number | null;
  conflict_score_low: number | null;
  conflict_score_high: number | null;
  priced_share: number | null;
  wins: number;
  losses: number;
  holdings_count: number;
  portfolio_start: string | null;
  portfolio_end: string | null;
  computed_at: string;
}

export interface PortfolioHoldingsTable {
  politician_id: number;
  ticker: string;
  market_symbol: string | null;
  asset_description: string | null;
  sector: string | null;
  /** open | closed */
  status: string;
  /** buy | sell | even: which side had more volume (bracket midpoints) */
  net_direction: string;
  trade_count: number;
  buy_count: number;
  sell_count: number;
  first_trade_date: string;
  last_trade_date: string;
  /** market (marked to the latest close) | cost (no prices: dollars in minus dollars out) */
  value_basis: string;
  last_price_date: string | null;
  bought_low: number | null;
  bought_high: number | null;
  sold_low: number | null;
  sold_high: number | null;
  cost_low: number | null;
  cost_high: number | null;
  cost_mid: number | null;
  value_low: number | null;
  value_high: number | null;
  value_mid: number | null;
  last_price: number | null;
  unrealized_pnl_low: number | null;
  unrealized_pnl_high: number | null;
  unrealized_pnl_mid: number | null;
  computed_at: string;
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
  /** When its disclosure.detected event was emitted; null while the event is owed (0018-hardening). */
  detected_at: string | null;
  /** The size limit (bytes) the document was refused under; a run with a larger limit reads it again (0040). */
  refused_limit_bytes: Generated<number | null>;
}

/** Every name a source served a document under, with the SHA-256 of its bytes (0040-document-names). */
export interface DocumentNamesTable {
  source: string;
  /** The source's document id, or the URL of a page. */
  name: string;
  sha256: string;
  url: string | null;
  bytes: number;
  first_seen_at: string;
  last_seen_at: string;
}

export interface IngestStateTable {
  source: string;
  cursor: string | null;
  last_status: string | null;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_error: string | null;
  updated_at: string;
  /** When a run last read the source's whole listing, every page (0086-whole-listing). */
  whole_listing_at: Generated<string | null>;
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
  /** What the filer wrote, when `ticker` was resolved from the description or respelled. */
  filed_ticker: string | null;
  /** The symbol priced for the trade (an option's underlying, BRK.B for BRK-B); null when none. */
  market_symbol: string | null;
  /** The next day on which the clock alone changes a market field (a window closes). */
  enrich_due: string | null;
  /** 1 while a window waits for prices beyond the latest bar. */
  awaiting_prices: Generated<number>;
  created_at: string;
  /** Last change to what the trade says (kept by a trigger for writers that do not stamp it). */
  updated_at: string;
  /** House PTR "Cap. Gains > $200?": 1 ticked, 0 not, null where the filing does not say. */
  cap_gains_over_200: number | null;
  // Identity and data quality (migration 0060-quality, domain/quality.ts).
  /** bioguide | name+term | filer | manual; null until the quality pass sees the trade. */
  identity_match: ColumnType<string | null, string | null | undefined, string | null>;
  /** The rule table's flags, comma-separated; null when none. */
  quality_flags: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when a flag leaves the trade out of statistics, rankings and the default listing. */
  quality_excluded: Generated<number>;
  /** An exchange's two symbols: the asset given up and the one received. */
  exchange_from_ticker: ColumnType<string | null, string | null | undefined, string | null>;
  exchange_to_ticker: ColumnType<string | null, string | null | undefined, string | null>;
  // Where the values came from (migration 0066-trade-parse-method).
  /** text (a text layer or a data set) | ocr (a scan read by the OCR stage) | manual (corrected on review). */
  parse_method: ColumnType<string, string | undefined, string>;
  /** The lowest field confidence of a row read by OCR, in [0, 1]; null otherwise. */
  parse_confidence: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An operator's fix of a trade's person (dcledger members link; migration 0060-quality). */
export interface IdentityLinksTable {
  id: Generated<number>;
  from_politician_id: number;
  filing_id: number | null;
  to_politician_id: number;
  trades_moved: number;
  linked_by: string;
  reason: string | null;
  linked_at: string;
}

/** The latest data-quality audit (GET /quality; migration 0060-quality). */
export interface QualityReportsTable {
  id: Generated<number>;
  computed_at: string;
  trigger: string;
  report: string;
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
  /**
   * The operator's custom requests-per-minute limit (`dcledger accounts limit`, migration
   * 0017-performance); null: the plan's limit, raised by recent top-ups.
   */
  requests_per_minute: ColumnType<number | null, number | null | undefined, number | null>;
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
  kind: LedgerKind;
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
  /** The API request that wrote the event, if one did (migration 0019-jobs). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The ingest run (scheduler_runs.id) that wrote the event, if one did (migration 0028-ops). */
  run_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface WebhookSubscriptionsTable {
  id: Generated<number>;
  account_id: number;
  key_id: number;
  alert_type: string;
  delivery: string;
  webhook_url: string;
  filter_value: string | null;
  /** Sealed secret (see webhooks/secrets.ts); never returned after creation or rotation. */
  secret: string;
  secret_rotated_at: string | null;
  /** active | failing | disabled */
  status: string;
  status_reason: string | null;
  start_event_id: number;
  failing_since: string | null;
  disabled_at: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  delivery_uid: string;
  subscription_id: number;
  event_id: number | null;
  event_type: string;
  is_test: number;
  /** pending | delivered | failed | cancelled */
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  lease_token: string | null;
  lease_expires_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** The API request behind the delivery (its event's, or a test's), if any (migration 0019-jobs). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The ingest run behind the delivery (its event's run_id), if any (migration 0028-ops). */
  run_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  started_at: string;
  /** delivered | failed | gone | blocked */
  outcome: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  next_attempt_at: string | null;
}

export interface WebhookFanoutTable {
  event_id: number;
  fanned_at: string;
}

export interface WebhookWorkerStateTable {
  name: string;
  value: number;
  updated_at: string;
}

/** One way a record names a company, linked to its ticker (migration 0007). */
export interface CompanyLinksTable {
  id: Generated<number>;
  identifier_kind: CompanyIdentifierKind;
  identifier_value: string;
  ticker: string | null;
  display_name: string | null;
  method: CompanyLinkMethod;
  confidence: number;
  source: string;
  updated_at: string;
}

export type CompanyIdentifierKind = 'cik' | 'cusip' | 'name' | 'uei';
export type CompanyLinkMethod =
  | 'sec_ticker_map'
  | 'filing'
  | 'directory'
  | 'exact'
  | 'normalized'
  | 'parent'
  | 'manual';

// Self-service accounts (migration 0011-self-service).
export interface AccountCredentialsTable {
  account_id: number;
  password_hash: string;
  email_verified_at: string | null;
  is_operator: number;
  trial_used_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AccountSessionsTable {
  token_hash: string;
  account_id: number;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export interface AccountTokensTable {
  token_hash: string;
  account_id: number;
  purpose: 'verify_email' | 'reset_password';
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
}

export interface PaymentIntentsTable {
  id: Generated<number>;
  account_id: number;
  provider: string;
  external_id: string | null;
  amount_cents: number;
  status: 'pending' | 'paid' | 'cancelled';
  created_at: string;
  settled_at: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: number;
  actor: 'user' | 'operator' | 'provider';
  action: string;
  detail: string | null;
  created_at: string;
}

/** Senate LDA filings (migration 0009-lobbying-contracts). */
export interface LobbyingFilingsTable {
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
  ticker: string | null;
  match_method: CompanyLinkMethod | null;
  match_confidence: number | null;
  origin: string;
  content_hash: string;
  raw_sha256: string | null;
  created_at: string;
  updated_at: string;
}

export interface LobbyingIssuesTable {
  filing_id: number;
  code: string;
}

/** USAspending contract awards (migration 0009-lobbying-contracts). */
export interface ContractAwardsTable {
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
  ticker: string | null;
  match_method: CompanyLinkMethod | null;
  match_confidence: number | null;
  origin: string;
  content_hash: string;
  raw_sha256: string | null;
  created_at: string;
  updated_at: string;
}

/** Legislation and campaign finance (migration 0010). */
export interface BillPartsTable {
  bill_id: string;
  /** sponsors | committees | actions | subjects | related | votes */
  part: string;
  content_hash: string;
  updated_at: string;
}

export interface BillSponsorsTable {
  bill_id: string;
  bioguide_id: string;
  role: 'sponsor' | 'cosponsor';
  full_name: string | null;
  party: string | null;
  state: string | null;
  sponsorship_date: string | null;
  is_original: number | null;
  withdrawn_date: string | null;
}

export interface BillCommitteeActivitiesTable {
  bill_id: string;
  seq: number;
  committee_id: string;
  system_code: string;
  committee_name: string;
  chamber: string | null;
  activity: string;
  activity_date: string | null;
}

export interface BillActionsTable {
  bill_id: string;
  seq: number;
  action_date: string;
  action_time: string | null;
  action_code: string | null;
  action_type: string | null;
  source_system: string | null;
  text: string;
  committee_ids: string | null;
}

export interface BillSubjectsTable {
  bill_id: string;
  subject: string;
}

export interface BillRelatedTable {
  bill_id: string;
  related_bill_id: string;
  relationship: string;
  identified_by: string | null;
  title: string | null;
}

export interface BillRecordedVotesTable {
  bill_id: string;
  seq: number;
  chamber: string;
  congress: number;
  session: number | null;
  clerk_roll_number: number;
  vote_date: string | null;
  action_name: string | null;
  url: string | null;
}

export interface VotesTable {
  id: string;
  congress: number;
  chamber: string;
  roll_number: number;
  clerk_roll_number: number | null;
  session: number | null;
  vote_date: string;
  bill_id: string | null;
  measure: string | null;
  question: string | null;
  result: string | null;
  description: string | null;
  yea_count: number | null;
  nay_count: number | null;
  source: string;
  updated_at: string;
}

export interface VotePositionsTable {
  id: string;
  vote_id: string;
  icpsr: number;
  bioguide_id: string | null;
  member_name: string | null;
  position: string;
  cast_code: number;
}

export interface CommitteeSeatsTable {
  id: Generated<number>;
  committee_id: string;
  bioguide_id: string;
  side: string | null;
  title: string | null;
  rank: number | null;
  start_date: string;
  start_basis: string;
  end_date: string | null;
  updated_at: string;
}

export interface PoliticianFecIdsTable {
  fec_id: string;
  bioguide_id: string;
}

export interface FecCandidatesTable {
  id: string;
  name: string;
  party: string | null;
  election_year: number | null;
  office_state: string | null;
  office: string | null;
  district: string | null;
  incumbent_challenger: string | null;
  status: string | null;
  principal_committee_id: string | null;
}

export interface FecCommitteesTable {
  id: string;
  name: string;
  designation: string | null;
  type: string | null;
  party: string | null;
  connected_org_name: string | null;
  connected_org_key: string | null;
  candidate_id: string | null;
}

export interface FecLinkagesTable {
  id: string;
  candidate_id: string;
  candidate_election_year: number | null;
  cycle: number | null;
  committee_id: string;
  committee_type: string | null;
  designation: string | null;
}

export interface FecCommitteeContributionsTable {
  id: string;
  committee_id: string;
  candidate_id: string;
  recipient_committee_id: string | null;
  transaction_type: string | null;
  entity_type: string | null;
  name: string | null;
  contribution_date: string | null;
  cycle: number | null;
  amount: number;
  memo: number;
  /** When the import last inserted or changed the row (migration 0022); null: stored before. */
  updated_at: string | null;
}

export interface FecEmployerTotalsTable {
  id: string;
  origin: string;
  committee_id: string;
  cycle: number;
  employer_key: string;
  employer_name: string;
  amount: number;
  contributions: number;
}

export interface FecCandidateTotalsTable {
  id: string;
  candidate_id: string;
  cycle: number;
  name: string;
  party: string | null;
  receipts: number;
  disbursements: number;
  cash_on_hand: number;
  debts: number;
  individual_contributions: number;
  pac_contributions: number;
  party_contributions: number;
  candidate_contributions: number;
  coverage_end_date: string | null;
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
  company_listings: CompanyListingsTable;
  price_bars: PriceBarsTable;
  price_series: PriceSeriesTable;
  corporate_actions: CorporateActionsTable;
  price_flags: PriceFlagsTable;
  price_fetches: PriceFetchesTable;
  ticker_resolutions: TickerResolutionsTable;
  politician_stats: PoliticianStatsTable;
  portfolio_holdings: PortfolioHoldingsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_fanout: WebhookFanoutTable;
  webhook_worker_state: WebhookWorkerStateTable;
  ingest_documents: IngestDocumentsTable;
  document_names: DocumentNamesTable;
  ingest_state: IngestStateTable;
  company_links: CompanyLinksTable;
  account_credentials: AccountCredentialsTable;
  account_sessions: AccountSessionsTable;
  account_tokens: AccountTokensTable;
  mail_outbox: MailOutboxTable;
  payment_intents: PaymentIntentsTable;
  audit_log: AuditLogTable;
  lobbying_filings: LobbyingFilingsTable;
  lobbying_issues: LobbyingIssuesTable;
  contract_awards: ContractAwardsTable;
  sec_filings: SecFilingsTable;
  insider_trades: InsiderTradesTable;
  whale_positions: WhalePositionsTable;
  bill_parts: BillPartsTable;
  bill_sponsors: BillSponsorsTable;
  bill_committee_activities: BillCommitteeActivitiesTable;
  bill_actions: BillActionsTable;
  bill_subjects: BillSubjectsTable;
  bill_related: BillRelatedTable;
  bill_recorded_votes: BillRecordedVotesTable;
  votes: VotesTable;
  vote_positions: VotePositionsTable;
  committee_seats: CommitteeSeatsTable;
  politician_fec_ids: PoliticianFecIdsTable;
  fec_candidates: FecCandidatesTable;
  fec_committees: FecCommitteesTable;
  fec_linkages: FecLinkagesTable;
  fec_committee_contributions: FecCommitteeContributionsTable;
  fec_employer_totals: FecEmployerTotalsTable;
  fec_candidate_totals: FecCandidateTotalsTable;
  idempotency_keys: IdempotencyKeysTable;
  role_leases: RoleLeasesTable;
  scheduler_runs: SchedulerRunsTable;
  price_refresh_runs: PriceRefreshRunsTable;
  listing_validators: ListingValidatorsTable;
  search_documents: SearchDocumentsTable;
  search_vectors: SearchVectorsTable;
  search_models: SearchModelsTable;
  search_sources: SearchSourcesTable;
  signup_requests: SignupRequestsTable;
  trade_links: TradeLinksTable;
  member_links: MemberLinksTable;
  politician_trade_totals: PoliticianTradeTotalsTable;
  enrichment_jobs: EnrichmentJobsTable;
  search_ivf: SearchIvfTable;
  search_ivf_centroids: SearchIvfCentroidsTable;
  search_ivf_assignments: SearchIvfAssignmentsTable;
  ticker_trade_descriptions: TickerTradeDescriptionsTable;
  bulk_exports: BulkExportsTable;
  identity_links: IdentityLinksTable;
  quality_reports: QualityReportsTable;
  politician_roles: PoliticianRolesTable;
  // OCR of scanned filings and their review queue (migrations 0065-0069).
  ocr_pages: OcrPagesTable;
  review_items: ReviewItemsTable;
  review_decisions: ReviewDecisionsTable;
  // Stored results of the range analytics (migration 0075-stored-analytics).
  timing_hits: TimingHitsTable;
  cluster_trades: ClusterTradesTable;
  analytics_stored: AnalyticsStoredTable;
  analytics_changes: AnalyticsChangesTable;
}

/** A suspicious-timing hit over the whole history at the widest `days_before` (0075-stored-analytics). */
export interface TimingHitsTable {
  /** The hit's place in the answer order. */
  rank: number;
  trade_id: number;
  transaction_date: string;
  ticker: string;
  source: string;
  trade_action: string;
  politician_id: number;
  amount_low: number | null;
  /** committee | floor */
  action_kind: string;
  days_between: number;
  /** JSON: { action, member_roles, bill_match }. */
  evidence: string;
}

/** A trade in some cluster over the whole history at the default parameters (0075-stored-analytics). */
export interface ClusterTradesTable {
  trade_id: number;
  transaction_date: string;
  ticker: string;
  source: string;
  trade_action: string;
  politician_id: number;
  amount_low: number | null;
}

export interface AnalyticsStoredTable {
  /** timing | clusters */
  name: string;
  computed_at: string;
  row_count: number;
}

/** A pending change to an input of the stored analytics, at most one row per scope. */
export interface AnalyticsChangesTable {
  id: Generated<number>;
  /** trades | timing */
  scope: string;
}

/** A row read from a scan that waits for a person (migration 0067-review-queue). */
export interface ReviewItemsTable {
  id: Generated<number>;
  filing_id: number;
  source: string;
  /** The trade's key once it is one: "<document id>#<row>". */
  source_key: string;
  page: number;
  row: number;
  /** pending | accepted | corrected | rejected */
  status: string;
  /** JSON: the fields as read. */
  fields: string;
  /** JSON: each field's confidence. */
  confidence: string;
  /** JSON: why the row waits. */
  reasons: string;
  /** JSON: the row's rectangle on the upright page and the page's geometry. */
  region: string;
  trade_id: number | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

/** One decision on a review item: who, when, each field's old and new value (migration 0067-review-queue). */
export interface ReviewDecisionsTable {
  id: Generated<number>;
  review_item_id: number;
  filing_id: number;
  /** accept | correct | reject */
  action: string;
  decided_by: string;
  /** JSON: [{ field, old, new }]. */
  changes: string;
  trade_id: number | null;
  decided_at: string;
}

/** A page the OCR stage read, kept until its document is read whole (migration 0065-ocr-pages). */
export interface OcrPagesTable {
  /** The reader's version and the document's SHA-256. */
  document_key: string;
  page: number;
  /** The page's result as JSON (ingest/ocr/read-scan.ts, ScannedPage). */
  data: string;
  created_at: string;
}

/** A bulk download's gzip file, one row per format (migration 0056-bulk-exports). */
export interface BulkExportsTable {
  /** trades.csv.gz, trades.ndjson.gz */
  name: string;
  content: Uint8Array;
  /** Strong ETag of the gzip bytes, with its quotes. */
  etag: string;
  /** What the trades looked like when it was built (tradeDataVersion); a different one means stale. */
  data_version: string;
  rows: number;
  /** Length of `content`. */
  bytes: number;
  generated_at: string;
}

/** Leadership roles of members, dated (migration 0070-leadership-roles). */
export interface PoliticianRolesTable {
  id: Generated<number>;
  politician_id: number;
  title: string;
  chamber: string | null;
  start_date: string | null;
  end_date: string | null;
}

/** Current trades counted per ticker and asset description, kept by triggers (migration 0027-endpoint-indexes). */
export interface TickerTradeDescriptionsTable {
  id: Generated<number>;
  ticker: string;
  /** 0 when the trades have no asset description (asset_description is then ''). */
  described: number;
  asset_description: string;
  trade_count: number;
}

/** One enrichment run, queued and claimed under a lease by a worker (migration 0019-jobs). */
export interface EnrichmentJobsTable {
  id: Generated<number>;
  /** 'enrichment' while waiting to be claimed (one waiting job at most); null otherwise. */
  queue_key: string | null;
  full_run: number;
  /** pending | running | completed | failed */
  status: string;
  requested_by: string;
  requests: number;
  attempts: number;
  next_attempt_at: string;
  lease_token: string | null;
  lease_expires_at: string | null;
  progress_phase: string | null;
  progress_done: number | null;
  progress_total: number | null;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The stored inverted-file vector index of one embedding model (migration 0023-search-ivf). */
export interface SearchIvfTable {
  model: string;
  dimensions: number;
  lists: number;
  trained_vectors: number;
  trained_similarity: number;
  built_at: string;
}

export interface SearchIvfCentroidsTable {
  model: string;
  list: number;
  centroid: Uint8Array;
}

/** Valid while `seq` equals the vector's search_vectors.seq. */
export interface SearchIvfAssignmentsTable {
  model: string;
  document_id: number;
  list: number;
  seq: number;
}

/** A member's trade that a committee held on its date oversees, or that is linked (migration 0013). */
export interface TradeLinksTable {
  trade_id: number;
  politician_id: number;
  transaction_date: string;
  /** JSON string[]: committees held on the trade date whose jurisdiction covers the trade's sector. */
  committees: string;
  /** JSON string[]: lobbying, contract, campaign. */
  link_kinds: string;
  /** JSON: the seats held on the trade date and the linking records (src/analytics/overlap.ts TradeLinks). */
  evidence: string;
  computed_at: string;
}

/** When a member's trade links were last computed, and where their seat history starts (migration 0013). */
export interface MemberLinksTable {
  politician_id: number;
  seats_known_from: string | null;
  computed_at: string;
}

/**
 * Per-member totals over the member's current trades (superseded_by null), kept by database
 * triggers on trades (ddl.ts, createTradeTotalsTriggers): what GET /politicians ranks by
 * without aggregating every trade per call. Sums are 0 and their row counts 0 when no trade
 * has an amount (the read side answers null then, as SUM over no value does).
 */
export interface PoliticianTradeTotalsTable {
  politician_id: number;
  trade_count: number;
  enriched_trades: number;
  volume_low: number;
  volume_low_rows: number;
  volume_high: number;
  volume_high_rows: number;
  last_trade_date: string | null;
}

/** A POST's Idempotency-Key: its claim and, once done, the answer to replay (migration 0015). */
export interface IdempotencyKeysTable {
  scope: string;
  /** SHA-256 of the Idempotency-Key: the key itself, which decrypts the stored answer, is never stored. */
  key_hash: string;
  route: string;
  request_hash: string;
  /** pending | done */
  state: string;
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: string;
  expires_at: string;
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

/** One Form 3/4/5 transaction line. */
export interface InsiderTradesTable {
  id: Generated<number>;
  sec_filing_id: number;
  accession_number: string;
  line: number;
  form: string;
  filed_date: string | null;
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

/** One reporting person of a Schedule 13D/13G. */
export interface WhalePositionsTable {
  id: Generated<number>;
  sec_filing_id: number;
  accession_number: string;
  line: number;
  form: string;
  filed_date: string | null;
  event_date: string | null;
  amendment_number: number | null;
  issuer_cik: string | null;
  issuer_cusip: string | null;
  issuer_name: string | null;
  ticker: string | null;
  filer_name: string;
  filer_cik: string | null;
  person_type: string | null;
  sole_voting: number | null;
  shared_voting: number | null;
  sole_dispositive: number | null;
  shared_dispositive: number | null;
  aggregate_amount: number | null;
  percent_of_class: number | null;
  is_lead: number;
  created_at: string;
  updated_at: string;
}

/** One process's claim on a role only one may play at a time (migration 0014-roles). */
export interface RoleLeasesTable {
  name: string;
  holder: string;
  acquired_at: string;
  expires_at: string;
}

export interface SchedulerRunsTable {
  id: Generated<number>;
  holder: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  error: string | null;
}

/** The daily price job's runs (migration 0080-price-refresh). */
export interface PriceRefreshRunsTable {
  id: Generated<number>;
  holder: string;
  requested_by: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  symbols_asked: Generated<number>;
  symbols_updated: Generated<number>;
  symbols_failed: Generated<number>;
  bars_added: Generated<number>;
  newest_close: string | null;
  providers: string | null;
  error: string | null;
}

export type PoliticianRow = Selectable<PoliticiansTable>;
export type NewPolitician = Insertable<PoliticiansTable>;
export type TradeRow = Selectable<TradesTable>;
export type NewTrade = Insertable<TradesTable>;
export type TradeUpdate = Updateable<TradesTable>;
export type FilingRow = Selectable<FilingsTable>;
export type NewFiling = Insertable<FilingsTable>;

/** One searchable record: the text full-text search and embeddings read (migration 0016-search). */
export interface SearchDocumentsTable {
  id: Generated<number>;
  doc_key: string;
  kind: string;
  ref_id: string;
  title: string;
  subtitle: string;
  body: string;
  /** JSON of the response's reference fields. */
  refs: string;
  vector_model: string | null;
  updated_at: string;
}

export interface SearchVectorsTable {
  document_id: number;
  model: string;
  kind: string;
  vector: Uint8Array;
  seq: number;
}

export interface SearchModelsTable {
  model: string;
  provider: string;
  dimensions: number;
  state: Uint8Array | null;
  trained_on: Generated<number>;
  active: Generated<number>;
  created_at: string;
}

export interface SearchSourcesTable {
  source: string;
  last_id: Generated<number>;
  last_updated: Generated<string>;
}

/** A sign-up waiting for its address to be confirmed (migration 0020); no account exists yet. */
export interface SignupRequestsTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  token_hash: string;
  expires_at: string;
  created_at: string;
}

/** The ETag / Last-Modified a source's listing URL last answered with (conditional polling). */
export interface ListingValidatorsTable {
  source: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  /** Earliest filing date the listing was read from when these were kept. */
  listed_since: string;
  changed_at: string;
  checked_at: string;
}
