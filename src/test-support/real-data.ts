// The real data every API test reads: legislators, the Senate Stock Watcher aggregate and its
// per-report files (which carry the disclosure dates), and both House trade sets; then market
// data (a slice of the price files, the company directory), the lobbying and contract records, and
// one full enrichment run.
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { enrich } from '../analytics/enrich.js';
import { importBills } from '../ingest/bills/import.js';
import { importFec } from '../ingest/fec/import.js';
import { importLegislators } from '../ingest/legislators/import.js';
import { importTradeSets } from '../ingest/trade-sets/import.js';
import { readVoteviewDir, saveVoteviewSets } from '../ingest/votes/import.js';
import { importCompanies } from '../market/import-companies.js';
import { importPrices } from '../market/import-prices.js';
import { type SearchOptions, SemanticSearch } from '../search/semantic.js';
import type { Database } from '../storage/schema.js';
import { importRecordFiles } from './record-files.js';

export const REAL_TRADE_SETS = [
  'congress/trades-senate/senate-stock-watcher/aggregate/all_transactions.json',
  'congress/trades-senate/senate-stock-watcher/data',
  'congress/trades-house/tattooedhead-house-stock-watcher/all_transactions_2026-05-29_early.json',
  'congress/trades-house/hsw-export-ambika-nair/unclean_transactions_25_april.csv',
] as const;

/**
 * Price files in the fixture: the total-return SPY and 19 stocks (PyPortfolioOpt), the 69
 * AlphaVantage tickers (raw closes and split coefficients), Stooq's SPY (for its bad prints) and
 * three Stooq Nasdaq names that overlap the others (cross-source checks). Half the bars of the
 * whole set, to keep the fixture quick on both databases; the benchmark loads everything.
 */
export const FIXTURE_PRICE_FILES = [
  'market/prices/pyportfolioopt',
  'market/prices/alphavantage_sp500_2012_2021',
  'market/prices/stooq_etfs_2005_2024/spy.us.txt',
  'market/prices/stooq_nasdaq_2012_2024/aapl.us.txt',
  'market/prices/stooq_nasdaq_2012_2024/msft.us.txt',
  'market/prices/stooq_nasdaq_2012_2024/nvda.us.txt',
] as const;

export const COMPANY_FILES = 'market/companies';

/** The clock the API tests run at: the day these notes were measured. */
export const FIXTURE_NOW = new Date('2026-06-01T12:00:00Z');

export async function loadRealData(db: Kysely<Database>, dataDir: string): Promise<void> {
  await importLegislators(db, join(dataDir, 'congress/legislators'), FIXTURE_NOW);
  for (const dir of ['related/bills/congress-gov-api-v3', 'related/bills/billstatus-xml']) {
    await importBills(db, join(dataDir, dir), FIXTURE_NOW);
  }
  // The 119th Senate's roll calls (the House set is three times larger: the benchmark loads it) and every FEC file.
  const votes = readVoteviewDir(join(dataDir, 'related/votes/voteview')).filter((set) => set.name === 'S119');
  await saveVoteviewSets(db, votes, { now: FIXTURE_NOW });
  await importFec(db, join(dataDir, 'related/fec'), { now: FIXTURE_NOW });
  for (const set of REAL_TRADE_SETS) await importTradeSets(db, join(dataDir, set), { now: FIXTURE_NOW });
  await importPrices(
    db,
    FIXTURE_PRICE_FILES.map((path) => join(dataDir, path)),
    { now: FIXTURE_NOW },
  );
  await importCompanies(db, join(dataDir, COMPANY_FILES), { now: FIXTURE_NOW });
  // Lobbying filings and contract awards, clients matched through the company directory just loaded.
  await importRecordFiles(
    db,
    { lda: join(dataDir, 'related/lda'), usaspending: join(dataDir, 'related/usaspending') },
    { now: FIXTURE_NOW },
  );
  // One full enrichment over everything loaded, as after an ingest: the member statistics and
  // their trade links (conflict_score, GET /conflict) weigh the filings and contracts, and every
  // stored result (company dossiers, overlap hits) is built from them. Nothing is pending when the
  // tests start, so a file that enriches its copy rebuilds what its own changes touched, not these.
  await enrich(db, { all: true, now: FIXTURE_NOW });
}

/**
 * Builds the semantic-search index of a loaded database as `dcledger search index` and the serve
 * warm-up do: the documents, the trained LSA model, every vector and the stored inverted-file
 * index. The test fixture is built with it, so that a copy answers its first question from what
 * is stored instead of each test file building the same index again; building it from nothing is
 * what the search tests over constructed records prove.
 */
export async function indexForSearch(
  db: Kysely<Database>,
  now: Date = FIXTURE_NOW,
  onProgress?: SearchOptions['onProgress'],
): Promise<void> {
  const engine = new SemanticSearch(db, onProgress ? { onProgress } : {});
  try {
    await engine.prepare(now);
    await engine.vectorIndexReady();
  } finally {
    engine.stop();
  }
}
