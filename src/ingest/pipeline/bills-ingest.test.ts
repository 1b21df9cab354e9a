// `ingest bills` from the recorded congress.gov API v3 answers: through the replay server as
// recorded (one list page whose bills have no recorded answers of their own), and through a local
// server whose bill list is CONSTRUCTED to name the one bill whose every answer was recorded
// (117 H.R. 21), with its actions list split over two pages to prove `next` is followed. The API
// key travels in a header only.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import { billParts, findBill } from '../../storage/repositories/bills.js';
import { type FixtureApp, openEmptyApp } from '../../test-support/app.js';
import { runRecordsSource, startReplay } from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';
import { CongressReplay } from '../sources/congress/replay.js';

const dataDir = inject('dataDir');

/** A server answering like congress.gov from the recordings, with a constructed list of bills. */
class ConstructedCongress {
  readonly requests: Array<{ url: string; apiKey: string | undefined }> = [];
  private server: Server | null = null;
  url = '';

  constructor(private readonly recorded: CongressReplay) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const answer = this.answer(request);
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.body);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(request: IncomingMessage): { status: number; body: string | Uint8Array } {
    const url = new URL(request.url ?? '/', this.url);
    const apiKey = request.headers['x-api-key'];
    this.requests.push({ url: url.toString(), apiKey: typeof apiKey === 'string' ? apiKey : undefined });
    if (url.pathname === '/v3/bill') {
      // CONSTRUCTED: the recorded lists do not name H.R. 21; this entry copies its recorded answer's fields.
      return {
        status: 200,
        body: JSON.stringify({
          bills: [
            {
              congress: 117,
              number: '21',
              type: 'HR',
              originChamber: 'House',
              title: 'FedRAMP Authorization Act',
              updateDate: '2022-03-25',
              url: 'https://api.congress.gov/v3/bill/117/hr/21?format=json',
            },
          ],
          pagination: { count: 1 },
        }),
      };
    }
    if (url.pathname === '/v3/bill/117/hr/21/actions') {
      // The recorded ten actions, served as two pages of five linked by `next`.
      const recorded = this.recorded.answers.get('/v3/bill/117/hr/21/actions') ?? {};
      const actions = Array.isArray(recorded.actions) ? recorded.actions : [];
      const offset = Number(url.searchParams.get('offset') ?? '0');
      const next =
        offset === 0
          ? 'https://api.congress.gov/v3/bill/117/hr/21/actions?offset=5&limit=5&format=json'
          : null;
      return {
        status: 200,
        body: JSON.stringify({
          ...recorded,
          actions: actions.slice(offset, offset + 5),
          pagination: { count: actions.length, next },
        }),
      };
    }
    const answer = this.recorded.answer({ method: 'GET', path: url.pathname });
    return answer ?? { status: 404, body: '{"error":"not found"}' };
  }
}

describe.skipIf(!dataDir)('ingest bills from the congress.gov API v3 answers', () => {
  let ctx: FixtureApp;
  let archiveDir: string;
  const clock = () => new Date('2022-04-05T12:00:00Z');
  const run = (baseUrl: string, env: Record<string, string> = {}) =>
    runRecordsSource(
      ctx.store.db,
      readIngest({
        DCLEDGER_ARCHIVE_DIR: archiveDir,
        DCLEDGER_FETCH_INTERVAL_MS: '0',
        DCLEDGER_FETCH_RETRIES: '0',
        ...env,
      }),
      'bills',
      { baseUrl, since: '2022-01-01', clock },
    );

  beforeAll(async () => {
    ctx = await openEmptyApp();
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-bills-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(archiveDir, { recursive: true, force: true });
  });

  describe('through the replay server, as recorded', () => {
    let replay: ReplayServer;
    beforeAll(async () => {
      replay = await startReplay(dataDir ?? '');
    });
    afterAll(() => replay.close());

    it('keeps the listed bill with a title, lists the rest as skipped with why, and adds nothing the second time', async () => {
      const first = await run(replay.url);
      expect(first).toMatchObject({ status: 'completed', records: 1, new: 1, updated: 0, unchanged: 0 });
      expect(first.skipped).toHaveLength(20);
      expect(first.skipped.filter((s) => /no title yet/.test(s.reason))).toHaveLength(19);
      expect(first.skipped).toContainEqual({
        id: 'hr3617-117',
        reason: "the bill's own answer is missing (404): kept what the list gives",
      });
      const more = await findBill(ctx.store.db, 'hr3617-117');
      expect(more).toMatchObject({
        title: 'MORE Act',
        congress: 117,
        latest_action_date: '2022-04-01',
        latest_action_text: 'Motion to reconsider laid on the table Agreed to without objection.',
      });
      const second = await run(replay.url);
      expect(second).toMatchObject({ status: 'completed', new: 0, updated: 0, unchanged: 1 });
    });
  });

  describe('through a constructed list naming the fully recorded bill', () => {
    let server: ConstructedCongress;
    beforeAll(async () => {
      server = new ConstructedCongress(
        new CongressReplay(join(dataDir ?? '', 'related', 'bills', 'congress-gov-api-v3')),
      );
      await server.start();
    });
    afterAll(() => server.stop());

    it('reads the bill and every linked list (following next), archives each answer, and stores its parts', async () => {
      const archived = () => readdirSync(archiveDir, { recursive: true }).length;
      const before = archived();
      const report = await run(server.url, { DCLEDGER_CONGRESS_API_KEY: 'test-key-not-secret' });
      expect(report).toMatchObject({ status: 'completed', records: 1, new: 1, skipped: [] });
      expect(archived()).toBeGreaterThan(before);
      const bill = await findBill(ctx.store.db, 'hr21-117');
      expect(bill).toMatchObject({
        title: 'FedRAMP Authorization Act',
        introduced_date: '2021-01-04',
        sponsor_bioguide_id: 'C001078',
      });
      const parts = await billParts(ctx.store.db, 'hr21-117');
      expect(parts.actions).toHaveLength(10);
      expect(parts.actions.map((a) => a.action_date)).toContain('2021-01-06');
      expect(parts.sponsors.map((s) => s.role).sort()).toEqual(['cosponsor', 'cosponsor', 'sponsor']);
      expect(parts.subjects.length).toBeGreaterThan(0);
      expect(parts.related).toHaveLength(1);
      expect(parts.committees.length).toBeGreaterThan(0);
      // Every request carried the key in its header, none in its URL; the actions' second page was read.
      expect(server.requests.every((r) => r.apiKey === 'test-key-not-secret')).toBe(true);
      expect(server.requests.some((r) => /api_key|test-key/.test(r.url))).toBe(false);
      expect(server.requests.some((r) => r.url.includes('/actions?offset=5'))).toBe(true);

      const second = await run(server.url, { DCLEDGER_CONGRESS_API_KEY: 'test-key-not-secret' });
      expect(second).toMatchObject({ status: 'completed', new: 0, updated: 0, unchanged: 1 });
    });
  });

  it('refuses to call api.congress.gov without a key, saying which setting to give', async () => {
    const report = await runRecordsSource(
      ctx.store.db,
      readIngest({ DCLEDGER_ARCHIVE_DIR: archiveDir, DCLEDGER_FETCH_RETRIES: '0' }),
      'bills',
      { since: '2022-01-01', clock },
    );
    expect(report.status).toBe('failed');
    expect(report.error).toMatch(/DCLEDGER_CONGRESS_API_KEY/);
  });
});
