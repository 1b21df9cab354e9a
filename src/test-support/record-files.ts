// Loading recorded LDA and USAspending documents from files, through the same readers and stores
// as `dcledger ingest lobbying|contracts` but without HTTP: for the test fixture and the benchmark.
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { filesUnder } from '../files.js';
import { parseLdaFilingsPage } from '../ingest/sources/lda/api.js';
import { parseLdaBulkXml } from '../ingest/sources/lda/bulk-xml.js';
import type { LobbyingFilingRecord } from '../ingest/sources/lda/filing.js';
import { LobbyingRecordStore } from '../ingest/sources/lda/store.js';
import type { RecordStore, StoreOutcome } from '../ingest/sources/record-connector.js';
import { type ContractAwardRecord, parseSpendingByAward } from '../ingest/sources/usaspending/award.js';
import { ContractRecordStore } from '../ingest/sources/usaspending/store.js';
import { loadCompanyMatcher } from '../market/company-match.js';
import type { Database } from '../storage/schema.js';
import { inTransaction } from '../storage/transaction.js';

export interface RecordFilesReport {
  lobbying: Record<StoreOutcome, number>;
  contracts: Record<StoreOutcome, number>;
}

/** Every LDA file (API pages, bulk XML) and USAspending award search answer under the two folders. */
export async function importRecordFiles(
  db: Kysely<Database>,
  folders: { lda?: string; usaspending?: string },
  options: { now: Date; emitEvents?: boolean },
): Promise<RecordFilesReport> {
  const matcher = await loadCompanyMatcher(db);
  const emit = options.emitEvents ?? false;
  const report: RecordFilesReport = {
    lobbying: { new: 0, updated: 0, unchanged: 0 },
    contracts: { new: 0, updated: 0, unchanged: 0 },
  };
  if (folders.lda) {
    const store = new LobbyingRecordStore(matcher, emit);
    for (const file of filesUnder(folders.lda, (name) => /\.(json|xml)$/i.test(name))) {
      const bytes = readFileSync(file);
      const records: LobbyingFilingRecord[] = file.toLowerCase().endsWith('.xml')
        ? parseLdaBulkXml(bytes)
        : parseLdaFilingsPage(bytes.toString('utf8')).filings;
      await storeAll(db, store, records, (record) => record.filingUuid, report.lobbying, options.now);
    }
  }
  if (folders.usaspending) {
    const store = new ContractRecordStore(matcher, emit);
    for (const file of filesUnder(folders.usaspending, (name) => name.endsWith('.json'))) {
      let records: ContractAwardRecord[];
      try {
        records = parseSpendingByAward(JSON.parse(readFileSync(file, 'utf8'))).awards;
      } catch {
        continue; // not an award search answer (details, category totals ...)
      }
      await storeAll(db, store, records, (record) => record.sourceId, report.contracts, options.now);
    }
  }
  return report;
}

async function storeAll<R>(
  db: Kysely<Database>,
  store: RecordStore<R>,
  records: readonly R[],
  /** A filing read twice (an API page and a bulk file) is stored once. */
  key: (record: R) => string,
  counts: Record<StoreOutcome, number>,
  now: Date,
): Promise<void> {
  const seen = new Set<string>();
  const unique = records.filter((record) => !seen.has(key(record)) && seen.add(key(record)));
  await inTransaction(db, async (trx) => {
    for (const record of unique) counts[(await store.store(trx, record, '', now)).outcome] += 1;
  });
}
