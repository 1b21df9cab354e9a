// The database as Kysely sees it: every table by name. Each table's shape is in schema/, one file
// per area (members, disclosures, ingest, market, records, legislation, analytics, accounts,
// webhooks, search, operations). Dates are ISO strings (YYYY-MM-DD) and timestamps ISO 8601
// strings on both SQLite and PostgreSQL, so that the same code reads and compares them.
import type {
  AccountCredentialsTable,
  AccountSessionsTable,
  AccountsTable,
  AccountTokensTable,
  ApiKeysTable,
  AuditLogTable,
  CreditLedgerTable,
  IdempotencyKeysTable,
  MailOutboxTable,
  PaymentIntentsTable,
  RequestLogTable,
  SignupRequestsTable,
  TopupsTable,
} from './schema/accounts.js';
import type {
  AnalyticsChangesTable,
  AnalyticsStoredTable,
  ClusterTradesTable,
  MemberLinksTable,
  PoliticianStatsTable,
  PoliticianTradeTotalsTable,
  PortfolioHoldingsTable,
  TickerTradeDescriptionsTable,
  TimingHitsTable,
  TradeCountsTable,
  TradeLinksTable,
} from './schema/analytics.js';
import type {
  FilingsTable,
  IdentityLinksTable,
  QualityReportsTable,
  TradeAliasesTable,
  TradesTable,
} from './schema/disclosures.js';
import type {
  DocumentNamesTable,
  IngestDocumentsTable,
  IngestStateTable,
  ListingValidatorsTable,
  OcrPagesTable,
  ReviewDecisionsTable,
  ReviewItemsTable,
} from './schema/ingest.js';
import type {
  BillActionsTable,
  BillCommitteeActivitiesTable,
  BillPartsTable,
  BillRecordedVotesTable,
  BillRelatedTable,
  BillSponsorsTable,
  BillSubjectsTable,
  BillsTable,
  FecCandidatesTable,
  FecCandidateTotalsTable,
  FecCommitteeContributionsTable,
  FecCommitteesTable,
  FecEmployerTotalsTable,
  FecLinkagesTable,
  PoliticianFecIdsTable,
  VotePositionsTable,
  VotesTable,
} from './schema/legislation.js';
import type {
  CompaniesTable,
  CompanyLinksTable,
  CompanyListingsTable,
  CorporateActionsTable,
  PriceBarsTable,
  PriceFetchesTable,
  PriceFlagsTable,
  PriceRefreshRunsTable,
  PriceSeriesTable,
  TickerResolutionsTable,
} from './schema/market.js';
import type {
  CommitteeMembershipsTable,
  CommitteeSeatsTable,
  CommitteesTable,
  PoliticianRolesTable,
  PoliticiansTable,
  PoliticianTermsTable,
} from './schema/members.js';
import type {
  BulkExportsTable,
  EnrichmentJobsTable,
  RoleLeasesTable,
  SchedulerRunsTable,
} from './schema/operations.js';
import type {
  ContractAwardsTable,
  InsiderTradesTable,
  LobbyingFilingsTable,
  LobbyingIssuesTable,
  SecFilingsTable,
  WhalePositionsTable,
} from './schema/records.js';
import type {
  SearchDocumentsTable,
  SearchIvfAssignmentsTable,
  SearchIvfCentroidsTable,
  SearchIvfTable,
  SearchModelsTable,
  SearchSourcesTable,
  SearchVectorsTable,
} from './schema/search.js';
import type {
  EventsTable,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookFanoutTable,
  WebhookSubscriptionsTable,
  WebhookWorkerStateTable,
} from './schema/webhooks.js';

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
  trade_counts: TradeCountsTable;
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
