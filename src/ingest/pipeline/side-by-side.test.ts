// The schedule's sources run side by side: a first fill of several sites takes about as long as
// the longest one, not their sum. Proven against the replay server by a House document whose text
// is read only once the Senate source has started storing: in turn (House, then Senate) the House
// would wait for a Senate run that never starts. And side by side they store what they store in
// turn: the same documents with the same outcomes and the same trades.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import type { Database } from '../../storage/schema.js';
import { type FixtureApp, openEmptyApp } from '../../test-support/app.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { REPLAY_SINCE, startReplay } from '../../test-support/replay.js';
import type { PdfText } from '../pdf-text.js';
import { PdfTextWorker } from '../pdf-worker.js';
import type { ReplayServer } from '../replay/server.js';
import { type IngestReport, reportSource } from './report.js';
import { type IngestOptions, ingestSources } from './setup.js';

const dataDir = inject('dataDir');
/** How long the House waits for the Senate to start before it gives up (and the test fails). */
const WAIT_MS = 60_000;

describe.skipIf(!dataDir)('sources side by side', () => {
  let ctx: FixtureApp;
  let server: ReplayServer;
  let archiveDir: string;
  const worker = new PdfTextWorker();
  const events: string[] = [];
  let report: IngestReport;

  beforeAll(async () => {
    ctx = await openEmptyApp();
    server = await startReplay(dataDir ?? '');
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-side-by-side-'));
    const config = {
      ...readIngest({ DCLEDGER_INGEST_SINCE: REPLAY_SINCE }),
      archiveDir,
      retries: 0,
      minIntervalMs: 0,
    };
    let senateStarted: () => void = () => undefined;
    const senate = new Promise<void>((resolve) => {
      senateStarted = resolve;
    });
    const controller = new AbortController();
    const stored = new Map<string, number>();
    report = await ingestSources(ctx.store.db, config, {
      sources: ['house', 'senate'],
      baseUrl: server.url,
      concurrent: true,
      signal: controller.signal,
      pdfText: async (bytes) => {
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the Senate source never started')), WAIT_MS).unref(),
        );
        await Promise.race([senate, timeout]);
        return worker.extract(bytes);
      },
      progress: {
        start: (source) => {
          events.push(`start ${source}`);
          if (source.startsWith('senate')) senateStarted();
        },
        advance: (source, done) => {
          stored.set(source, done);
          // Enough to see both at work: stop the run between documents.
          if ([...stored.values()].filter((count) => count >= 2).length === 2) controller.abort();
        },
        finish: (finished) => events.push(`finish ${reportSource(finished)}`),
      },
    });
  }, 300_000);
  afterAll(async () => {
    await worker.close();
    await server?.close();
    await ctx?.close();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  it('starts the Senate while the House is still filling, and reports both in the order asked', () => {
    const houseFinished = events.findIndex((event) => event.startsWith('finish house'));
    const senateStarted = events.findIndex((event) => event.startsWith('start senate'));
    expect(senateStarted).toBeGreaterThanOrEqual(0);
    expect(houseFinished === -1 || senateStarted < houseFinished).toBe(true);
    expect(report.sources.map((source) => source.connector)).toEqual(['house', 'senate']);
    expect(report.sources.every((source) => source.status !== 'failed')).toBe(true);
  });

  it('stores documents of both sources', async () => {
    const filings = await ctx.store.db
      .selectFrom('filings')
      .select(({ fn }) => ['source', fn.countAll<number>().as('n')])
      .groupBy('source')
      .execute();
    const by = new Map(filings.map((row) => [row.source, Number(row.n)]));
    expect(by.get('house_clerk') ?? 0).toBeGreaterThan(0);
    expect(by.get('senate_efd') ?? 0).toBeGreaterThan(0);
  });
});

/** What a fill stored, without the ids and times the order of writing decides. */
async function stored(db: Kysely<Database>) {
  const filings = await db
    .selectFrom('filings')
    .select(['source', 'source_doc_id', 'parse_status', 'parse_reason', 'trade_count'])
    .orderBy('source')
    .orderBy('source_doc_id')
    .execute();
  const trades = await db
    .selectFrom('trades')
    .select(['source', 'source_key', 'ticker', 'trade_type', 'amount_range', 'transaction_date', 'owner'])
    .orderBy('source')
    .orderBy('source_key')
    .execute();
  return { filings, trades };
}

describe.skipIf(!dataDir)('a fill side by side and a fill in turn', () => {
  let server: ReplayServer;
  const stores: TestStore[] = [];
  const archives: string[] = [];
  // The PDF reader's text is a function of the document's bytes alone: the second fill takes what
  // the reader gave the first (a failure too) instead of reading the same hundreds of PDFs again.
  // What differs between the fills is the order in which the pipeline stores, not the text.
  const reader = new PdfTextWorker();
  const texts = new Map<string, Promise<PdfText>>();
  const pdfText = (bytes: Uint8Array): Promise<PdfText> => {
    const key = createHash('sha256').update(bytes).digest('hex');
    let text = texts.get(key);
    if (!text) {
      text = reader.extract(bytes);
      texts.set(key, text);
    }
    return text;
  };
  const fill = async (concurrent: boolean) => {
    const store = await openTestStore();
    stores.push(store);
    const archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-side-by-side-'));
    archives.push(archiveDir);
    const config = {
      ...readIngest({ DCLEDGER_INGEST_SINCE: REPLAY_SINCE }),
      archiveDir,
      retries: 0,
      minIntervalMs: 0,
    };
    const options: IngestOptions = {
      sources: ['house', 'senate', 'oge'],
      baseUrl: server.url,
      concurrent,
      pdfText,
    };
    const report = await ingestSources(store.db, config, options);
    // A source that failed says why here, not as a wall of pending filings below.
    expect(report.sources.map((source) => [source.connector, source.status, source.error])).toEqual(
      report.sources.map((source) => [source.connector, 'completed', null]),
    );
    return stored(store.db);
  };

  beforeAll(async () => {
    server = await startReplay(dataDir ?? '');
  });
  afterAll(async () => {
    await reader.close();
    await server?.close();
    for (const store of stores) await store.dispose();
    for (const dir of archives) rmSync(dir, { recursive: true, force: true });
  });

  it('store the same documents, outcomes and trades', async () => {
    const inTurn = await fill(false);
    const sideBySide = await fill(true);
    expect(inTurn.filings.length).toBeGreaterThan(300);
    expect(inTurn.trades.length).toBeGreaterThan(1000);
    expect(sideBySide.filings).toEqual(inTurn.filings);
    expect(sideBySide.trades).toEqual(inTurn.trades);
  }, 600_000);
});
