// Settings are validated at start, every bad value reported on its own line; a URL in
// DCLEDGER_DB selects PostgreSQL or is refused, never becomes a file name.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from './config/read.js';
import { loadConfig, readDatabase } from './config.js';
import { runCli } from './test-support/cli.js';

describe('settings validation', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('DCLEDGER_DB=postgres://... selects PostgreSQL', () => {
    const url = 'postgres://user:pass@db.example:5432/dcledger';
    expect(readDatabase({ DCLEDGER_DB: url })).toEqual({ kind: 'postgres', url });
    expect(readDatabase({ DCLEDGER_DB: 'postgresql://h/d' })).toEqual({
      kind: 'postgres',
      url: 'postgresql://h/d',
    });
    expect(readDatabase({ DCLEDGER_DB: './var/x.db' })).toEqual({ kind: 'sqlite', file: './var/x.db' });
  });

  it('another URL in DCLEDGER_DB is refused without echoing it', () => {
    expect(() => readDatabase({ DCLEDGER_DB: 'mysql://root:hunter2@h/db' })).toThrow(ConfigError);
    expect(() => readDatabase({ DCLEDGER_DB: 'mysql://root:hunter2@h/db' })).not.toThrow(/hunter2/);
  });

  it('reports every bad value, one line each', () => {
    let message = '';
    try {
      loadConfig({
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        DCLEDGER_PUBLIC_URL: 'not a url',
        DCLEDGER_FETCH_RETRIES: '-1',
        DCLEDGER_WEBHOOK_WORKER: 'maybe',
        DCLEDGER_INGEST_SOURCES: 'house,parliament',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    const lines = message.split('\n');
    expect(lines).toHaveLength(6);
    for (const name of [
      'PORT',
      'LOG_LEVEL',
      'DCLEDGER_PUBLIC_URL',
      'DCLEDGER_FETCH_RETRIES',
      'DCLEDGER_WEBHOOK_WORKER',
    ]) {
      expect(lines.filter((line) => line.startsWith(name))).toHaveLength(1);
    }
    expect(lines.some((line) => line.includes('parliament'))).toBe(true);
  });

  it('the CLI prints each bad setting on its own line and exits 2, creating no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcledger-config-'));
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      vi.stubEnv('DATABASE_URL', '');
      vi.stubEnv('DCLEDGER_DB', 'mysql://root:hunter2@127.0.0.1/db');
      vi.stubEnv('PORT', '99999');
      const outcome = await runCli('migrate');
      expect(outcome.code).toBe(2);
      const lines = outcome.err.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines.every((line) => line.startsWith('dcledger: '))).toBe(true);
      expect(outcome.err).not.toContain('hunter2');
      expect(readdirSync(dir)).toEqual([]);
      expect(existsSync(join(dir, 'mysql:'))).toBe(false);
    } finally {
      process.chdir(cwd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
