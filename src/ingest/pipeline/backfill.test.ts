// The first fill of an empty database against the replay server: documents are fetched newest
// filing first, trades are served while the fill runs, its progress shows on /status (JSON and
// page) and the landing page, and a fill stopped part-way resumes without asking the site again
// for a document it already fetched.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import type { BackfillJson } from '../../http/routes/ui/backfill-section.js';
import { backfillProgress } from '../../storage/repositories/backfill-progress.js';
import { type FixtureApp, getJson, openEmptyApp } from '../../test-support/app.js';
import { REPLAY_SINCE, startReplay } from '../../test-support/replay.js';
import type { PdfText } from '../pdf-text.js';
import { PdfTextWorker } from '../pdf-worker.js';
import type { ReplayServer } from '../replay/server.js';
import type { IngestProgress } from './run.js';
import { ingestSources } from './setup.js';

const dataDir = inject('dataDir');
/** Documents the first run stores before it is stopped (a shutdown of `serve`). */
const STOP_AFTER = 12;
/** What the first run's pages say while it runs, read after this many documents. */
const LOOK_AFTER = 6;
/** The fill started this long before the app's clock: the rate is documents over it. */
const RUN_MINUTES = 2;

interface SourceJson {
  source: string;
  backfill: BackfillJson;
}

/** The House document paths the replay server was asked for, in order, from request `from` on. */
function documentRequests(server: ReplayServer, from = 0): string[] {
  return server.requests
    .slice(from)
    .filter((request) => request.path.includes('/ptr-pdfs/'))
    .map((request) => request.path);
}

describe.skipIf(!dataDir)('the first fill of an empty database', () => {
  let ctx: FixtureApp;
  let server: ReplayServer;
  let archiveDir: string;
  const worker = new PdfTextWorker();
  let startedAt: Date;
  let firstRun: string[] = [];
  let secondRun: string[] = [];
  let whileRunning: { status: SourceJson | undefined; landing: string; page: string; trades: number };

  beforeAll(async () => {
    ctx = await openEmptyApp();
    server = await startReplay(dataDir ?? '');
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-backfill-'));
    startedAt = new Date(ctx.clock.now.getTime() - RUN_MINUTES * 60_000);
    const config = {
      ...readIngest({ DCLEDGER_INGEST_SINCE: REPLAY_SINCE }),
      archiveDir,
      retries: 0,
      minIntervalMs: 0,
    };
    const run = (
      options: {
        progress?: IngestProgress;
        signal?: AbortSignal;
        pdfText?: (bytes: Uint8Array) => Promise<PdfText>;
      } = {},
    ) =>
      ingestSources(ctx.store.db, config, {
        sources: ['house'],
        baseUrl: server.url,
        clock: () => startedAt,
        ...options,
      });

    const controller = new AbortController();
    let look: Promise<void> = Promise.resolve();
    // The next document is read only once the pages have been looked at, so they see the run
    // between two documents.
    const pdfText = async (bytes: Uint8Array) => {
      await look;
      return worker.extract(bytes);
    };
    await run({
      signal: controller.signal,
      pdfText,
      progress: {
        start: () => undefined,
        advance: (_source, done) => {
          if (done === LOOK_AFTER) {
            look = (async () => {
              const status = await ctx.app.inject({
                method: 'GET',
                url: '/status',
                headers: { accept: 'application/json' },
              });
              const trades = await getJson<unknown[]>(ctx, '/trades?days=3650&limit=100');
              whileRunning = {
                status: status
                  .json<{ sources: SourceJson[] }>()
                  .sources.find((s) => s.source === 'house_clerk'),
                landing: (await ctx.app.inject({ method: 'GET', url: '/' })).body,
                page: (await ctx.app.inject({ method: 'GET', url: '/status' })).body,
                trades: trades.body.length,
              };
            })();
          }
          if (done === STOP_AFTER) controller.abort();
        },
        finish: () => undefined,
      },
    });
    await look;
    firstRun = documentRequests(server);
    const mark = server.requests.length;
    // The restart: a new run over the same database.
    await run();
    secondRun = documentRequests(server, mark);
  }, 300_000);
  afterAll(async () => {
    await worker.close();
    await server?.close();
    await ctx?.close();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  it('fetches the newest filings first', async () => {
    const dates = new Map(
      (
        await ctx.store.db
          .selectFrom('filings')
          .select(['source_doc_id', 'filed_date'])
          .where('source', '=', 'house_clerk')
          .execute()
      ).map((row) => [row.source_doc_id, row.filed_date ?? '']),
    );
    const docId = (path: string) =>
      path
        .split('/')
        .pop()
        ?.replace(/\.pdf$/, '') ?? '';
    const order = [...firstRun, ...secondRun].map((path) => dates.get(docId(path)) ?? '');
    expect(order.length).toBe(dates.size);
    expect(order.every((date) => date !== '')).toBe(true);
    expect(order).toEqual([...order].sort().reverse());
    // The recorded indexes' newest PTR (filed 2025-11-21) comes first.
    expect(order[0]).toBe('2025-11-21');
  });

  it('serves trades and shows its progress while it runs', () => {
    expect(whileRunning.trades).toBeGreaterThan(0);
    const backfill = whileRunning.status?.backfill;
    expect(backfill).toMatchObject({
      complete: false,
      running: true,
      listed: 59,
      fetched: LOOK_AFTER,
      waiting: 59 - LOOK_AFTER,
      fetched_this_run: LOOK_AFTER,
      rate_per_minute: LOOK_AFTER / RUN_MINUTES,
      eta_seconds: Math.round(((59 - LOOK_AFTER) / (LOOK_AFTER / RUN_MINUTES)) * 60),
    });
    expect(backfill?.parsed).toBeGreaterThan(0);
    expect(backfill?.parsed).toBeLessThanOrEqual(LOOK_AFTER);
    expect(whileRunning.landing).toContain('Filling the database');
    expect(whileRunning.landing).toContain(
      `<strong>house_clerk</strong>: ${LOOK_AFTER} of 59 documents fetched, ${backfill?.parsed} parsed; ${LOOK_AFTER / RUN_MINUTES} a minute, about 18 min left`,
    );
    expect(whileRunning.page).toContain(
      `<th scope="row">house_clerk</th><td>filling</td><td class="num">59</td><td class="num">${LOOK_AFTER}</td><td class="num">${backfill?.parsed}</td><td class="num">${59 - LOOK_AFTER}</td><td class="num">${LOOK_AFTER / RUN_MINUTES}</td><td>about 18 min</td>`,
    );
  });

  it('resumes after a restart without fetching a document again', () => {
    expect(firstRun).toHaveLength(STOP_AFTER);
    expect(secondRun).toHaveLength(59 - STOP_AFTER);
    const both = [...firstRun, ...secondRun];
    expect(new Set(both).size).toBe(both.length);
  });

  it('is complete once a run has stored everything: the landing page says nothing more', async () => {
    const [house] = await backfillProgress(ctx.store.db, ctx.clock.now);
    // 52 e-filed PTRs read, 7 scans stored for OCR (docs/ingestion.md).
    expect(house).toMatchObject({
      source: 'house_clerk',
      complete: true,
      running: false,
      listed: 59,
      fetched: 59,
      parsed: 52,
      waiting: 0,
      fetchedThisRun: 59,
      etaSeconds: null,
    });
    const landing = (await ctx.app.inject({ method: 'GET', url: '/' })).body;
    expect(landing).not.toContain('Filling the database');
    const status = await ctx.app.inject({
      method: 'GET',
      url: '/status',
      headers: { accept: 'application/json' },
    });
    expect(status.json<{ sources: SourceJson[] }>().sources[0]?.backfill).toMatchObject({
      complete: true,
      running: false,
      fetched: 59,
      waiting: 0,
      eta_seconds: null,
    });
  });
});
