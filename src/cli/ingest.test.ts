// `dcledger ingest` and its report, in-process against a temporary SQLite file and the replay server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '../accounts/admin.js';
import { buildApp } from '../app.js';
import type { ReplayServer } from '../ingest/replay/server.js';
import type { Filing as FilingResource } from '../resources/filing.js';
import { openStore } from '../storage/database.js';
import { runCli as cli } from '../test-support/cli.js';
import { startReplay } from '../test-support/replay.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('dcledger ingest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-ingest-cli-'));
  const dbFile = join(dir, 'cli.db');
  let server: ReplayServer;

  beforeAll(async () => {
    process.env.DCLEDGER_DB = dbFile;
    process.env.DCLEDGER_ARCHIVE_DIR = join(dir, 'archive');
    process.env.DCLEDGER_FETCH_INTERVAL_MS = '0';
    delete process.env.DATABASE_URL;
    server = await startReplay(dataDir ?? '');
  });
  afterAll(async () => {
    await server?.close();
    for (const name of ['DCLEDGER_DB', 'DCLEDGER_ARCHIVE_DIR', 'DCLEDGER_FETCH_INTERVAL_MS'])
      delete process.env[name];
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses bad arguments with exit code 2 and a one-line reason', async () => {
    expect(await cli('ingest', 'parliament')).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown source "parliament"'),
    });
    expect(await cli('ingest', 'house', '--since', '2025-13-45')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--since'),
    });
    expect(await cli('ingest', 'house', '--base-url', 'ftp://example.org')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--base-url must be an http(s) URL'),
    });
  });

  it('ingests from a base URL, reports unmatched filers and prints one line per source when piped', async () => {
    // No legislators in this database: every filer is unknown, and each is reported, none dropped.
    const { code, out, err } = await cli(
      'ingest',
      'house',
      '--base-url',
      server.url,
      '--since',
      '2025-08-01',
    );
    expect(code).toBe(0);
    expect(out).toContain('== house (house_clerk): completed');
    expect(out).toMatch(/new filings: (\d+)/);
    expect(out).toContain('filers matched to no known politician (created)');
    expect(out).toContain('Lisa McClain (MI09), house_clerk:20033446');
    expect(err.trim().split('\n')).toEqual([expect.stringMatching(/^house: completed; index \d+ listed/)]);
    const again = await cli(
      'ingest',
      'house',
      '--base-url',
      server.url,
      '--since',
      '2025-08-01',
      '--json',
      '--log',
    );
    const report = JSON.parse(again.out) as {
      sources: { newFilings: number; trades: { created: number } }[];
    };
    expect(report.sources[0]).toMatchObject({ newFilings: 0, trades: { created: 0 } });
    // --log: the run's lines on stderr, each with the second run's id, like a scheduled run's.
    const logged = again.err
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; run?: number });
    expect(logged.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        'manual ingest run started',
        'ingest source finished',
        'manual ingest run finished',
      ]),
    );
    expect(new Set(logged.map((line) => line.run))).toEqual(new Set([2]));
  });

  it('serves what it stored in GET /filings', async () => {
    const store = openStore({ kind: 'sqlite', file: dbFile });
    const app = await buildApp({ db: store.db, dialect: store.dialect, clock: () => new Date() });
    try {
      const account = await createAccount(
        store.db,
        { email: 'cli-ingest@example.org', plan: 'max', paid: true },
        new Date(),
      );
      const response = await app.inject({
        method: 'GET',
        url: '/filings?source=house&limit=100',
        headers: { 'dc-api-key': account.key.api_key },
      });
      const filings = response.json() as FilingResource[];
      expect(filings.length).toBeGreaterThan(5);
      expect(filings.every((filing) => filing.filed_date !== null && filing.filed_date >= '2025-08-01')).toBe(
        true,
      );
      expect(filings.find((filing) => filing.source_doc_id === '20033446')).toMatchObject({
        parse_status: 'parsed',
        politician_name: 'Lisa McClain',
      });
    } finally {
      await app.close();
      await store.close();
    }
  });
});
