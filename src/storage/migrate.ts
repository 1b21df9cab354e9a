// Numbered migrations, applied in order on SQLite and PostgreSQL alike.
import { type Kysely, type Migration, type MigrationResult, Migrator } from 'kysely';
import * as core from './migrations/0001-core.js';
import * as accounts from './migrations/0002-accounts.js';
import * as market from './migrations/0003-market.js';
import * as events from './migrations/0004-events.js';
import * as webhooks from './migrations/0005-webhooks.js';
import * as ingest from './migrations/0006-ingest.js';
import * as companyLinks from './migrations/0007-company-links.js';
import * as sec from './migrations/0008-sec.js';
import * as lobbyingContracts from './migrations/0009-lobbying-contracts.js';
import * as legislationFinance from './migrations/0010-legislation-finance.js';
import * as selfService from './migrations/0011-self-service.js';
import * as analyticsClusters from './migrations/0012-analytics-clusters.js';
import * as analyticsLinks from './migrations/0013-analytics-links.js';
import * as roles from './migrations/0014-roles.js';
import * as idempotency from './migrations/0015-idempotency.js';
import * as search from './migrations/0016-search.js';
import * as performance from './migrations/0017-performance.js';
import * as hardening from './migrations/0018-hardening.js';
import * as jobs from './migrations/0019-jobs.js';
import * as accountVerify from './migrations/0020-account-verify.js';
import * as politicianStats from './migrations/0021-politician-stats.js';
import * as timingHits from './migrations/0022-timing-hits.js';
import * as searchIvf from './migrations/0023-search-ivf.js';
import * as analyticsRollups from './migrations/0025-analytics-rollups.js';
import * as endpointIndexes from './migrations/0027-endpoint-indexes.js';
import * as ops from './migrations/0028-ops.js';
import * as pgHotPath from './migrations/0029-pg-hot-path.js';
import * as endpointSpeed from './migrations/0030-endpoint-speed.js';
import * as pgChargeBatch from './migrations/0032-pg-charge-batch.js';
import * as documentNames from './migrations/0040-document-names.js';
import * as ledgerRefunds from './migrations/0045-ledger-refunds.js';
import * as tradeSyncFields from './migrations/0055-trade-sync-fields.js';
import * as bulkExports from './migrations/0056-bulk-exports.js';
import * as quality from './migrations/0060-quality.js';
import * as qualityTotals from './migrations/0061-quality-totals.js';
import * as executiveService from './migrations/0062-executive-service.js';
// OCR of scanned filings and their review queue.
import * as ocrPages from './migrations/0065-ocr-pages.js';
import * as tradeParseMethod from './migrations/0066-trade-parse-method.js';
import * as reviewQueue from './migrations/0067-review-queue.js';
import * as leadershipRoles from './migrations/0070-leadership-roles.js';
import * as searchVectorSeq from './migrations/0071-search-vector-seq.js';
import * as storedAnalytics from './migrations/0075-stored-analytics.js';
import * as dossierReads from './migrations/0076-dossier-reads.js';
import * as tickerAggregates from './migrations/0077-ticker-aggregates.js';
import * as tradeCounts from './migrations/0078-trade-counts.js';
import * as tradeSectorCounts from './migrations/0079-trade-sector-counts.js';
import * as priceRefresh from './migrations/0080-price-refresh.js';
import * as listingValidators from './migrations/0085-listing-validators.js';
import * as wholeListing from './migrations/0086-whole-listing.js';
import * as storedTopTickers from './migrations/0095-stored-top-tickers.js';
import * as storedOverlap from './migrations/0096-stored-overlap.js';
import * as storedDossiers from './migrations/0097-stored-dossiers.js';
import * as dossierTickers from './migrations/0098-dossier-tickers.js';
import * as pgChargePage from './migrations/0099-pg-charge-page.js';
import * as tradeDateCounts from './migrations/0103-trade-date-counts.js';
import * as storedClusterAnswers from './migrations/0104-stored-cluster-answers.js';
import * as memberDisclosureIndex from './migrations/0105-member-disclosure-index.js';
import * as timingCounts from './migrations/0107-timing-counts.js';
import * as searchTsvTrigger from './migrations/0108-search-tsv-trigger.js';
import * as pgInsertedTradesPerStatement from './migrations/0109-pg-inserted-trades-per-statement.js';
import * as overlapRecords from './migrations/0110-overlap-records.js';
import * as lobbyistsAsServed from './migrations/0111-lobbyists-as-served.js';
import * as memberVotesIndex from './migrations/0112-member-votes-index.js';
import * as searchFtsMergeSteps from './migrations/0113-search-fts-merge-steps.js';
import * as pgChangedTradesPerStatement from './migrations/0114-pg-changed-trades-per-statement.js';
import type { Database } from './schema.js';

export const migrations: Record<string, Migration> = {
  '0001-core': core,
  '0002-accounts': accounts,
  '0003-market': market,
  '0004-events': events,
  '0005-webhooks': webhooks,
  '0006-ingest': ingest,
  '0007-company-links': companyLinks,
  '0011-self-service': selfService,
  '0009-lobbying-contracts': lobbyingContracts,
  '0008-sec': sec,
  '0010-legislation-finance': legislationFinance,
  '0015-idempotency': idempotency,
  '0014-roles': roles,
  '0017-performance': performance,
  '0012-analytics-clusters': analyticsClusters,
  '0016-search': search,
  '0020-account-verify': accountVerify,
  '0013-analytics-links': analyticsLinks,
  '0018-hardening': hardening,
  '0021-politician-stats': politicianStats,
  '0022-timing-hits': timingHits,
  '0019-jobs': jobs,
  '0023-search-ivf': searchIvf,
  '0027-endpoint-indexes': endpointIndexes,
  '0025-analytics-rollups': analyticsRollups,
  '0028-ops': ops,
  '0029-pg-hot-path': pgHotPath,
  '0030-endpoint-speed': endpointSpeed,
  '0032-pg-charge-batch': pgChargeBatch,
  '0040-document-names': documentNames,
  '0045-ledger-refunds': ledgerRefunds,
  '0055-trade-sync-fields': tradeSyncFields,
  '0056-bulk-exports': bulkExports,
  '0060-quality': quality,
  '0061-quality-totals': qualityTotals,
  '0062-executive-service': executiveService,
  '0065-ocr-pages': ocrPages,
  '0066-trade-parse-method': tradeParseMethod,
  '0067-review-queue': reviewQueue,
  '0070-leadership-roles': leadershipRoles,
  '0071-search-vector-seq': searchVectorSeq,
  '0075-stored-analytics': storedAnalytics,
  '0076-dossier-reads': dossierReads,
  '0077-ticker-aggregates': tickerAggregates,
  '0078-trade-counts': tradeCounts,
  '0079-trade-sector-counts': tradeSectorCounts,
  '0080-price-refresh': priceRefresh,
  '0085-listing-validators': listingValidators,
  '0086-whole-listing': wholeListing,
  '0095-stored-top-tickers': storedTopTickers,
  '0096-stored-overlap': storedOverlap,
  '0097-stored-dossiers': storedDossiers,
  '0098-dossier-tickers': dossierTickers,
  '0099-pg-charge-page': pgChargePage,
  '0103-trade-date-counts': tradeDateCounts,
  '0104-stored-cluster-answers': storedClusterAnswers,
  '0105-member-disclosure-index': memberDisclosureIndex,
  '0107-timing-counts': timingCounts,
  '0108-search-tsv-trigger': searchTsvTrigger,
  '0109-pg-inserted-trades-per-statement': pgInsertedTradesPerStatement,
  '0110-overlap-records': overlapRecords,
  '0111-lobbyists-as-served': lobbyistsAsServed,
  '0112-member-votes-index': memberVotesIndex,
  '0113-search-fts-merge-steps': searchFtsMergeSteps,
  '0114-pg-changed-trades-per-statement': pgChangedTradesPerStatement,
};

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationReport> {
  // Migrations are independent tables and columns; a database that has a later one applied
  // before an earlier one (built from a branch) can still take the earlier one.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result: MigrationResult) => result.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}

/** Migrations of this build not applied to `db` yet (readiness: the schema is current). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const known = await migrator.getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
