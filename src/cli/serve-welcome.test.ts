// What `dcledger serve` prints once it listens tells the truth about ingestion: with `--no-ingest`
// (and the schedule's default interval, which alone would start it) it says ingestion is off.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

  it('says scheduled ingestion is off under --no-ingest', async () => {
    const env = cliEnv(
      { kind: 'sqlite', file: join(dir, 'welcome.db') },
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
    const output = started.output();
    expect(output).toContain('Scheduled ingestion is off here');
    expect(output).not.toContain('has begun');
  }, 90_000);
});
