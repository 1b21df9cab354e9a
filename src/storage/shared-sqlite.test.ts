// `dcledger ingest` in its own process and a metered load in this one, on one SQLite file at
// once: no "database is locked", no lost charge, no lost request-log row, every filing stored.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '../accounts/admin.js';
import { buildApp } from '../app.js';
import type { ReplayServer } from '../ingest/replay/server.js';
import { repoRoot } from '../test-support/data-dir.js';
import { testDialect } from '../test-support/database.js';
import { startReplay } from '../test-support/replay.js';
import { openStore } from './database.js';
import { openMigratedStore } from './open.js';

const dataDir = inject('dataDir');

describe.skipIf(testDialect() !== 'sqlite' || dataDir === null)('ingest and serve on one SQLite file', () => {
  // Made when the tests run, not when a skipped describe is collected (its afterAll would not run).
  let dir = '';
  let file = '';
  let server: ReplayServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dcledger-shared-'));
    file = join(dir, 'shared.db');
    server = await startReplay(dataDir ?? '');
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs both at once without a lock error or a lost row', async () => {
    const setup = await openMigratedStore({ kind: 'sqlite', file });
    // Several keys, so the per-minute limit of one never answers the load with 429s.
    const keys: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const account = await createAccount(
        setup.db,
        {
          email: `load${index}@example.org`,
          plan: 'max',
          credits: 1_000_000,
          dailyCap: 1_000_000_000,
          paid: true,
        },
        new Date(),
      );
      keys.push(account.key.api_key);
    }
    await setup.close();

    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/main.ts',
        'ingest',
        'house',
        '--base-url',
        server.url,
        '--since',
        '2025-06-01',
      ],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          DCLEDGER_DB: file,
          DATABASE_URL: '',
          DCLEDGER_ARCHIVE_DIR: join(dir, 'archive'),
          DCLEDGER_FETCH_INTERVAL_MS: '0',
          DCLEDGER_FETCH_BACKOFF_MS: '10',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let childOutput = '';
    child.stdout.on('data', (chunk) => {
      childOutput += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      childOutput += String(chunk);
    });
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    let running = true;
    void exited.then(() => {
      running = false;
    });

    const store = openStore({ kind: 'sqlite', file });
    const app = await buildApp({ db: store.db, dialect: store.dialect, clock: () => new Date() });
    const statuses: number[] = [];
    const urls = ['/trades?limit=5', '/filings?limit=5', '/politicians?limit=5', '/feed/recent?limit=5'];
    try {
      let turn = 0;
      while (running || turn < 20) {
        const url = urls[turn % urls.length] ?? '/trades';
        const key = keys[turn % keys.length] ?? '';
        const response = await app.inject({ url, headers: { 'dc-api-key': key } });
        statuses.push(response.statusCode);
        if (response.statusCode >= 500) throw new Error(`${url}: ${response.statusCode} ${response.payload}`);
        turn += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await app.close();
      const code = await exited;
      expect(childOutput).not.toMatch(/locked|SQLITE_BUSY/i);
      expect(code).toBe(0);
      expect(childOutput).toContain('house (house_clerk): completed');

      const answered = statuses.filter((status) => status === 200).length;
      expect(answered).toBe(statuses.length);
      const charges = await store.db
        .selectFrom('credit_ledger')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', 'charge')
        .executeTakeFirstOrThrow();
      const logged = await store.db
        .selectFrom('request_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(logged.n)).toBe(statuses.length);
      expect(Number(charges.n)).toBe(statuses.length);
      const filings = await store.db
        .selectFrom('filings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(filings.n)).toBeGreaterThan(0);
    } finally {
      if (running) child.kill('SIGTERM');
      await store.close();
    }
  }, 240_000);
});
