// /status per source, for people (HTML) and machines (Accept: application/json), after real
// polls of the replay server: one House PTR read, one whose PDF the site fails to serve (waiting to
// be read again), one paper scan stored without OCR (waiting for OCR), and the OGE listing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../../config.js';
import { ingestSources } from '../../../ingest/pipeline/setup.js';
import type { ReplayServer } from '../../../ingest/replay/server.js';
import { type FixtureApp, openEmptyApp } from '../../../test-support/app.js';
import { listReplay, startReplay, startReplayKeeping } from '../../../test-support/replay.js';

const dataDir = inject('dataDir');
const WINDOW = '2020-01-01';
/** E-filed House PTRs of the recorded 2025 index, and a paper one (a scan) of 2021. */
const READ = '20026517';
const UNSERVED = '20027810';

interface StatusJson {
  total_trades: number;
  ingest_interval_minutes: number | null;
  sources: Array<{
    source: string;
    last_poll: { started_at: string | null; finished_at: string | null; status: string | null };
    newest_document: { id: string; filed_date: string | null; listed_at: string } | null;
    waiting: { fetch: number; parse: number; ocr: number; review: number; review_rows: number };
    newest_trade: { stored_at: string | null; age_seconds: number | null };
    documents_by_parse_status: Record<string, number>;
    trades: number;
  }>;
  webhook_outbox: { events: number; deliveries: number };
}

describe.skipIf(!dataDir)('/status after polls of the replay server', () => {
  let ctx: FixtureApp;
  let server: ReplayServer;
  let archiveDir: string;
  let paper: string;
  let pollAt: Date;

  beforeAll(async () => {
    ctx = await openEmptyApp();
    const open = await startReplay(dataDir ?? '');
    const listed = await listReplay(open.url, WINDOW, ctx.clock.now, ['house', 'oge']);
    await open.close();
    const scan = listed.house?.find((document) => document.isPaper);
    if (!scan) throw new Error('the recorded House index lists no paper PTR');
    paper = scan.docId;
    server = await startReplayKeeping(dataDir ?? '', listed, [READ, UNSERVED, paper, listed.oge?.[0]?.docId]);
    server.failNext(new RegExp(`/${UNSERVED}\\.pdf$`), 1, 503);
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-status-'));
    pollAt = new Date(ctx.clock.now.getTime() - 90 * 60_000);
    await ingestSources(
      ctx.store.db,
      { ...readIngest({ DCLEDGER_INGEST_SINCE: WINDOW }), archiveDir, retries: 0, minIntervalMs: 0 },
      { sources: ['house', 'oge'], baseUrl: server.url, clock: () => pollAt },
    );
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    await ctx?.close();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  const get = (accept?: string) =>
    ctx.app.inject({ method: 'GET', url: '/status', headers: accept ? { accept } : {} });

  it('answers JSON per source: last poll, newest document, documents waiting, age of the newest trade', async () => {
    const response = await get('application/json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    const body = response.json<StatusJson>();
    const house = body.sources.find((entry) => entry.source === 'house_clerk');
    const houseTrades = house?.trades ?? 0;
    expect(houseTrades).toBeGreaterThan(0);
    expect(house).toMatchObject({
      last_poll: { started_at: pollAt.toISOString(), finished_at: pollAt.toISOString(), status: 'completed' },
      // All three were listed by the same poll: the latest filing date comes first.
      newest_document: { id: UNSERVED, filed_date: '2025-02-21', listed_at: pollAt.toISOString() },
      waiting: { fetch: 0, parse: 1, ocr: 1, review: 0, review_rows: 0 },
      newest_trade: { stored_at: pollAt.toISOString(), age_seconds: 90 * 60 },
      documents_by_parse_status: { parsed: 1, needs_ocr: 1, pending: 1 },
    });
    const oge = body.sources.find((entry) => entry.source === 'oge');
    expect(oge).toMatchObject({ last_poll: { status: 'completed' }, waiting: { fetch: 0, parse: 0 } });
    expect(body.total_trades).toBe(houseTrades + (oge?.trades ?? 0));
    expect(body.ingest_interval_minutes).toBeNull();
    expect(body.webhook_outbox).toEqual({ events: 0, deliveries: 0 });
  });

  it('shows the same to people as a page, the earlier table unchanged', async () => {
    for (const accept of [undefined, 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8']) {
      const response = await get(accept);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      const page = response.body;
      expect(page).toMatch(/<th scope="row">house_clerk<\/th><td>2026-06-01 10:30<\/td><td>completed<\/td>/);
      expect(page).toContain(
        `<th scope="row">house_clerk</th><td>2026-06-01 10:30</td><td>${UNSERVED} (filed 2025-02-21, listed 2026-06-01 10:30)</td>`,
      );
      expect(page).toContain(
        '<td class="num">0</td><td class="num">1</td><td class="num">1</td><td class="num">0</td><td class="num">0</td><td>90 min</td>',
      );
    }
  });
});
