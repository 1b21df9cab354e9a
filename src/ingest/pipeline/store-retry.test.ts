// A document's store transaction ended by PostgreSQL to break a lock cycle (two sources or two
// workers writing the same tickers' rows) runs again: what the ended attempt wrote is rolled back,
// the second attempt stores it, and the run's report counts it once. Here the real EDGAR source
// against the replay server, with its store made to fail once with PostgreSQL's deadlock code
// right after its writes: the run must end exactly as a run without the failure does (on SQLite
// the transaction is rolled back and run again the same way).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { countRows, replaySecConfig, startReplay } from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';
import type { RecordStore } from '../sources/record-connector.js';
import { registeredSource, SourceRegistry } from '../sources/registry.js';
import { definition as sec } from '../sources/sec/source.js';
import { ingestSources } from './setup.js';

const dataDir = inject('dataDir');
/** A week of real recorded filings in the replay's daily indexes (as sec-detection.test.ts polls). */
const NOW = new Date('2025-03-21T12:00:00Z');

/** The store, failing once, after its writes, as a statement PostgreSQL ends with a deadlock does. */
function failingOnce<R>(store: RecordStore<R>, failures: { count: number }): RecordStore<R> {
  return {
    async store(db, record, rawSha256, now) {
      const stored = await store.store(db, record, rawSha256, now);
      if (failures.count === 0) {
        failures.count += 1;
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      }
      return stored;
    },
    ...(store.details ? { details: () => store.details?.() ?? {} } : {}),
  };
}

describe.skipIf(!dataDir)('a store transaction ended by a lock conflict', () => {
  const stores: TestStore[] = [];
  let server: ReplayServer;
  let archiveDir: string;

  beforeAll(async () => {
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-store-retry-'));
    server = await startReplay(dataDir ?? '');
  });
  afterAll(async () => {
    await server?.close();
    for (const store of stores) await store.dispose();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  async function run(registry?: SourceRegistry) {
    const store = await openTestStore();
    stores.push(store);
    const config = replaySecConfig({ DCLEDGER_ARCHIVE_DIR: archiveDir, DCLEDGER_FETCH_RETRIES: '0' });
    const report = await ingestSources(store.db, config, {
      sources: ['sec'],
      baseUrl: server.url,
      clock: () => NOW,
      ...(registry ? { registry } : {}),
    });
    const rows = {
      filings: await countRows(store.db, 'sec_filings'),
      insiderTrades: await countRows(store.db, 'insider_trades'),
      events: await countRows(store.db, 'events'),
    };
    return { report: report.records?.[0], rows };
  }

  it('runs again and stores and counts each filing once', { timeout: 120_000 }, async () => {
    const plain = await run();
    const failures = { count: 0 };
    const failing = new SourceRegistry([
      registeredSource({
        ...sec,
        store: (context, flags) => failingOnce(sec.store(context, flags), failures),
      }),
    ]);
    const retried = await run(failing);

    expect(failures.count).toBe(1);
    expect(plain.report).toMatchObject({ status: 'completed', error: null });
    expect(plain.rows.insiderTrades).toBeGreaterThan(0);
    expect(plain.rows.events).toBeGreaterThan(0);
    // Same rows, same report: nothing of the ended attempt kept, nothing of it counted.
    expect(retried.rows).toEqual(plain.rows);
    expect(retried.report).toEqual(plain.report);
  });
});
