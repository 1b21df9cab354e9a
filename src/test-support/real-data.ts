// The real data every API test reads: legislators, the Senate Stock Watcher aggregate and its
// per-report files (which carry the disclosure dates), and both House trade sets; then market
// data (a slice of the price files, the company directory) and one full enrichment run.
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { enrich } from '../analytics/enrich.js';
import { refreshMembers } from '../analytics/refresh-members.js';
import { todayUtc } from '../domain/dates.js';
import { importBills } from '../ingest/bills/import.js';
import { importFec } from '../ingest/fec/import.js';
import { importLegislators } from '../ingest/legislators/import.js';
import { importTradeSets } from '../ingest/trade-sets/import.js';
import { readVoteviewDir, saveVoteviewSets } from '../ingest/votes/import.js';
import { importCompanies } from '../market/import-companies.js';
import { importPrices } from '../market/import-prices.js';
import { SymbolDataCache } from '../market/series-loader.js';
import { SemanticSearch } from '../search/semantic.js';
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
  await loadMarketData(db, dataDir, FIXTURE_PRICE_FILES);
  // Lobbying filings and contract awards, clients matched through the company directory just loaded.
  await importRecordFiles(
    db,
    { lda: join(dataDir, 'related/lda'), usaspending: join(dataDir, 'related/usaspending') },
    { now: FIXTURE_NOW },
  );
  // As the enrichment after an ingest: member statistics and their trade links (conflict_score,
  // GET /conflict) weigh the lobbying filings and contracts just imported. Every member, since the
  // records carry the same instant as the enrichment above.
  await refreshMembers(db, {
    today: todayUtc(FIXTURE_NOW),
    stamp: FIXTURE_NOW.toISOString(),
    all: true,
    touchedMembers: new Set(),
    cache: new SymbolDataCache(),
  });
}

export async function loadMarketData(
  db: Kysely<Database>,
  dataDir: string,
  priceFiles: readonly string[],
  now: Date = FIXTURE_NOW,
): Promise<void> {
  await importPrices(
    db,
    priceFiles.map((path) => join(dataDir, path)),
    { now },
  );
  await importCompanies(db, join(dataDir, COMPANY_FILES), { now });
  await enrich(db, { all: true, now });
}

/**
 * Builds the semantic-search index of a loaded database as `dcledger search index` and the serve
 * warm-up do: the documents, the trained LSA model, every vector and the stored inverted-file
 * index. The test fixture is built with it, so that a copy answers its first question from what
 * is stored instead of each test file building the same index again; building it from nothing is
 * what the search tests over constructed records prove.
 */
export async function indexForSearch(db: Kysely<Database>, now: Date = FIXTURE_NOW): Promise<void> {
  const engine = new SemanticSearch(db);
  try {
    await engine.prepare(now);
    await engine.vectorIndexReady();
  } finally {
    engine.stop();
  }
}
