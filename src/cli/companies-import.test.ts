// `dcledger companies import --from-sec`: the SEC's company directory fetched from EDGAR (the
// replay server serving the recorded files) and imported as the same files read from disk are.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ReplayServer } from '../ingest/replay/server.js';
import { openMigratedStore } from '../storage/open.js';
import { runCli as cli } from '../test-support/cli.js';
import { startReplay } from '../test-support/replay.js';

const dataDir = inject('dataDir');
const SETTINGS = [
  'DCLEDGER_DB',
  'DCLEDGER_FETCH_INTERVAL_MS',
  'DCLEDGER_FETCH_RETRIES',
  'DCLEDGER_SEC_CONTACT',
];

describe.skipIf(!dataDir)('dcledger companies import --from-sec', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-companies-sec-'));
  const dbFile = join(dir, 'companies.db');
  let server: ReplayServer;

  beforeAll(async () => {
    process.env.DCLEDGER_DB = dbFile;
    process.env.DCLEDGER_FETCH_INTERVAL_MS = '0';
    process.env.DCLEDGER_FETCH_RETRIES = '0';
    delete process.env.DCLEDGER_SEC_CONTACT;
    delete process.env.DATABASE_URL;
    server = await startReplay(dataDir ?? '');
  });
  afterAll(async () => {
    await server?.close();
    for (const name of SETTINGS) delete process.env[name];
    rmSync(dir, { recursive: true, force: true });
  });

  async function companies(): Promise<number> {
    const store = await openMigratedStore({ kind: 'sqlite', file: dbFile });
    try {
      const row = await store.db
        .selectFrom('companies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    } finally {
      await store.close();
    }
  }

  it('wants a path or --from-sec, not both, and --base-url only with --from-sec', async () => {
    const sec = join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json');
    for (const args of [[], [sec, '--from-sec'], [sec, '--base-url', server.url]]) {
      const outcome = await cli('companies', 'import', ...args);
      expect(outcome.code, args.join(' ')).toBe(2);
      expect(outcome.err).toMatch(/^dcledger: (name a company directory|--base-url is for --from-sec)/);
    }
  });

  it("refuses sec.gov without the contact EDGAR's fair-access policy asks for, before any request", async () => {
    const outcome = await cli('companies', 'import', '--from-sec');
    expect(outcome).toMatchObject({ code: 2, err: expect.stringContaining('set DCLEDGER_SEC_CONTACT') });
  });

  it('imports nothing when EDGAR does not answer, and says why', async () => {
    const before = server.requests.length;
    server.failNext('/files/company_tickers_exchange.json', 1, 404);
    const outcome = await cli('companies', 'import', '--from-sec', '--base-url', server.url);
    expect(outcome.code).toBe(1);
    expect(outcome.err).toContain("could not fetch the SEC's company directory");
    // The first file was fetched, the second failed: neither is imported.
    expect(server.requests.slice(before).map((request) => [request.path, request.status])).toEqual([
      ['/files/company_tickers.json', 200],
      ['/files/company_tickers_exchange.json', 404],
    ]);
    expect(await companies()).toBe(0);
  });

  it('fetches both directory files and imports them; imported again, nothing changes', async () => {
    const first = await cli('companies', 'import', '--from-sec', '--base-url', server.url, '--json');
    expect(first.code, first.err).toBe(0);
    const report = JSON.parse(first.out) as {
      files: Array<{ file: string; source: string; rows: number; added: number; removed: number }>;
      companies: { total: number; inserted: number };
    };
    expect(report.files.map(({ file, source }) => [file, source])).toEqual([
      ['company_tickers.json', 'sec'],
      ['company_tickers_exchange.json', 'sec_exchange'],
    ]);
    for (const file of report.files) expect(file.rows).toBeGreaterThan(5000);
    expect(report.companies.inserted).toBe(report.companies.total);
    expect(await companies()).toBe(report.companies.total);

    const again = await cli('companies', 'import', '--from-sec', '--base-url', server.url);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/^company_tickers\.json \(sec\): \d+ tickers, 0 new, 0 gone$/m);
    expect(again.out).toMatch(
      /^company_tickers_exchange\.json \(sec_exchange\): \d+ tickers, 0 new, 0 gone$/m,
    );
    expect(again.out).toContain(`companies: ${report.companies.total} (0 new)`);
  });
});
