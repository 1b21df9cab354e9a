// What `dcledger serve` prints once it listens tells the truth about ingestion: with `--no-ingest`
// (and the schedule's default interval, which alone would start it) it says ingestion is off; on
// a database without companies it says that scans' rows will wait for review, and how to add them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCompanies } from '../market/import-companies.js';
import { openMigratedStore } from '../storage/open.js';
import { cliEnv, exited, type SpawnedCli, spawnCli, until } from '../test-support/cli.js';

describe('the welcome text of serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-welcome-'));
  let serve: SpawnedCli | undefined;
  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await exited(serve.child);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  /** What serve prints until its welcome text ends, on the SQLite file `file`; then it is stopped. */
  async function welcome(file: string): Promise<string> {
    const env = cliEnv(
      { kind: 'sqlite', file },
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DCLEDGER_WEBHOOK_WORKER: 'off',
        DCLEDGER_INGEST_INTERVAL_MINUTES: '60',
      },
    );
    serve = spawnCli(['serve', '--no-ingest', '--no-worker'], env);
    const started = serve;
    await until(
      async () => /No accounts yet|dcledger is running at[^\n]*\n[\s\S]*\n\n/.test(started.output()),
      60_000,
      () => started.output(),
    );
    started.child.kill('SIGTERM');
    await exited(started.child);
    return started.output();
  }

  it('says scheduled ingestion is off under --no-ingest, and that scans wait without companies', async () => {
    const output = await welcome(join(dir, 'welcome.db'));
    expect(output).toContain('Scheduled ingestion is off here');
    expect(output).not.toContain('has begun');
    expect(output).toContain('No companies yet');
    expect(output).toContain('dcledger companies import --from-sec');
  }, 90_000);

  it('says nothing of companies once the database holds some', async () => {
    const file = join(dir, 'with-companies.db');
    // CONSTRUCTED: one company in the shape of the SEC's company_tickers.json.
    const tickers = join(dir, 'company_tickers.json');
    writeFileSync(tickers, JSON.stringify({ 0: { cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' } }));
    const store = await openMigratedStore({ kind: 'sqlite', file });
    try {
      await importCompanies(store.db, tickers);
    } finally {
      await store.close();
    }
    const output = await welcome(file);
    expect(output).toContain('dcledger is running at');
    expect(output).not.toContain('No companies yet');
  }, 90_000);
});
