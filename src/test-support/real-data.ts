// The real data every API test reads: legislators, the Senate Stock Watcher aggregate and its
// per-report files (which carry the disclosure dates), and both House trade sets.
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { importBills } from '../ingest/bills/import.js';
import { importLegislators } from '../ingest/legislators/import.js';
import { importTradeSets } from '../ingest/trade-sets/import.js';
import type { Database } from '../storage/schema.js';

export const REAL_TRADE_SETS = [
  'congress/trades-senate/senate-stock-watcher/aggregate/all_transactions.json',
  'congress/trades-senate/senate-stock-watcher/data',
  'congress/trades-house/tattooedhead-house-stock-watcher/all_transactions_2026-05-29_early.json',
  'congress/trades-house/hsw-export-ambika-nair/unclean_transactions_25_april.csv',
] as const;

/** The clock the API tests run at: the day these notes were measured. */
export const FIXTURE_NOW = new Date('2026-06-01T12:00:00Z');

export async function loadRealData(db: Kysely<Database>, dataDir: string): Promise<void> {
  await importLegislators(db, join(dataDir, 'congress/legislators'), FIXTURE_NOW);
  for (const dir of ['related/bills/congress-gov-api-v3', 'related/bills/billstatus-xml']) {
    await importBills(db, join(dataDir, dir), FIXTURE_NOW);
  }
  for (const set of REAL_TRADE_SETS) await importTradeSets(db, join(dataDir, set), { now: FIXTURE_NOW });
}
