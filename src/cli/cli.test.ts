// The command line, run in-process against a temporary SQLite file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../app.js';
import { openStore } from '../storage/database.js';
import { runCli as cli } from '../test-support/cli.js';
import { repoRoot } from '../test-support/data-dir.js';

const dir = mkdtempSync(join(tmpdir(), 'dcledger-cli-'));
const dbFile = join(dir, 'cli.db');

async function callApi(key: string, url: string) {
  const store = openStore({ kind: 'sqlite', file: dbFile });
  const app = await buildApp({ db: store.db, dialect: store.dialect, clock: () => new Date() });
  try {
    const response = await app.inject({ method: 'GET', url, headers: { 'dc-api-key': key } });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  } finally {
    await app.close();
    await store.close();
  }
}

describe('dcledger CLI', () => {
  beforeAll(() => {
    process.env.DCLEDGER_DB = dbFile;
    delete process.env.DATABASE_URL;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists every command', async () => {
    const { out } = await cli('--help');
    for (const command of ['serve', 'worker', 'migrate', 'import', 'accounts', 'keys', 'credits'])
      expect(out).toContain(command);
    expect((await cli('serve', '--help')).out).toContain('--no-worker');
    const keys = await cli('keys', '--help');
    for (const command of ['create', 'list', 'revoke', 'rotate', 'cap', 'log'])
      expect(keys.out).toContain(command);
  });

  it('--version prints the version of package.json', async () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const outcome = await cli(flag);
      expect(outcome.code).toBe(0);
      expect(outcome.out).toBe(`${manifest.version}\n`);
    }
  });

  it('creates an account with a one-time key that works, lists keys without showing them, rotates and revokes', async () => {
    const created = await cli(
      'accounts',
      'create',
      '--email',
      'Reporter@Example.org',
      '--plan',
      'pro',
      '--paid',
    );
    expect(created.code).toBe(0);
    const account = JSON.parse(created.out) as {
      account_id: number;
      api_key: string;
      key_id: number;
      plan: string;
      credits: number;
    };
    expect(account).toMatchObject({ plan: 'pro', credits: 750 });
    expect(account.api_key).toMatch(/^dc_/);
    const balance = await callApi(account.api_key, '/credits/balance');
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({ plan: 'pro', balance: 100_750 });

    const listed = await cli('keys', 'list', '--account', 'reporter@example.org');
    expect(listed.out).not.toContain(account.api_key);
    expect(listed.out).toContain(`${account.api_key.slice(0, 8)}…${account.api_key.slice(-4)}`);

    const rotated = JSON.parse((await cli('keys', 'rotate', String(account.key_id))).out) as {
      api_key: string;
      replaced_key_id: number;
    };
    expect(rotated.replaced_key_id).toBe(account.key_id);
    expect((await callApi(account.api_key, '/credits/balance')).status).toBe(403);
    expect((await callApi(rotated.api_key, '/credits/balance')).status).toBe(200);

    const second = JSON.parse(
      (await cli('keys', 'create', '--account', String(account.account_id), '--daily-cap', '10')).out,
    ) as { key_id: number; api_key: string; daily_cap: number };
    expect(second.daily_cap).toBe(10);
    await cli('keys', 'cap', String(second.key_id), '12');
    expect((await callApi(second.api_key, '/credits/balance')).body).toMatchObject({ daily_cap: 12 });
    await cli('keys', 'revoke', String(second.key_id));
    expect((await callApi(second.api_key, '/credits/balance')).status).toBe(403);
    const again = await cli('keys', 'revoke', String(second.key_id));
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already revoked/);
  });

  it('grants credits and records top-ups that lift the rate limit', async () => {
    const created = JSON.parse(
      (await cli('accounts', 'create', '--email', 'quant@example.org', '--credits', '0')).out,
    ) as { account_id: number; api_key: string };
    expect(
      JSON.parse((await cli('credits', 'grant', '--account', 'quant@example.org', '--credits', '40')).out),
    ).toMatchObject({ granted: 40, balance: 40 });
    const today = new Date().toISOString().slice(0, 10);
    const topup = JSON.parse(
      (
        await cli(
          'credits',
          'topup',
          '--account',
          String(created.account_id),
          '--amount',
          '25',
          '--date',
          today,
        )
      ).out,
    );
    expect(topup).toMatchObject({ dollars: 25, credits: 25_000, balance: 25_040 });
    expect((await callApi(created.api_key, '/credits/balance')).body).toMatchObject({
      rate_limit: { limit: 240 },
    });
  });

  it('sets a custom per-minute limit for an account and goes back to the plan limit', async () => {
    const created = JSON.parse(
      (await cli('accounts', 'create', '--email', 'contract@example.org', '--plan', 'max', '--paid')).out,
    ) as { account_id: number; api_key: string };
    const set = await cli('accounts', 'limit', 'contract@example.org', '5000');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.out)).toEqual({
      account_id: created.account_id,
      requests_per_minute: 5000,
      custom: true,
    });
    expect((await callApi(created.api_key, '/credits/balance')).body).toMatchObject({
      rate_limit: { limit: 5000 },
    });
    expect(JSON.parse((await cli('accounts', 'limit', String(created.account_id), 'plan')).out)).toEqual({
      account_id: created.account_id,
      requests_per_minute: 600,
      custom: false,
    });
    expect((await callApi(created.api_key, '/credits/balance')).body).toMatchObject({
      rate_limit: { limit: 600 },
    });
    const bad = await cli('accounts', 'limit', 'contract@example.org', 'lots');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/the limit must be a whole number/);
    expect((await cli('accounts', 'limit', 'contract@example.org', '0')).err).toMatch(/from 1 to 10000000/);
    expect((await cli('accounts', 'limit', 'nobody@example.org', '10')).err).toMatch(/no account/);
  });

  it('refuses bad input with a clear message and a non-zero exit', async () => {
    expect((await cli('accounts', 'create', '--email', 'not-an-email')).err).toMatch(/not an email address/);
    expect((await cli('accounts', 'create', '--email', 'x@example.org', '--plan', 'gold')).err).toMatch(
      /--plan must be one of/,
    );
    expect((await cli('credits', 'topup', '--account', '1', '--amount', 'lots')).err).toMatch(/--amount/);
    const missing = await cli('import', 'trades', join(dir, 'nope.json'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no such file or directory/);
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"hello": "world"}');
    expect((await cli('import', 'trades', junk)).err).toMatch(/unrecognized JSON trade set/);
  });

  it('keys create stops at DCLEDGER_MAX_KEYS_PER_ACCOUNT active keys', async () => {
    process.env.DCLEDGER_MAX_KEYS_PER_ACCOUNT = '2';
    try {
      const created = await cli('accounts', 'create', '--email', 'capped@example.org');
      expect(created.code).toBe(0);
      expect((await cli('keys', 'create', '--account', 'capped@example.org')).code).toBe(0);
      const refused = await cli('keys', 'create', '--account', 'capped@example.org');
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/already has 2 active keys, the most it may hold; revoke one first/);
    } finally {
      delete process.env.DCLEDGER_MAX_KEYS_PER_ACCOUNT;
    }
  });

  const dataDir = inject('dataDir');
  it.skipIf(!dataDir)('imports a real trade set, then re-importing it changes nothing', async () => {
    await cli('import', 'legislators', join(dataDir ?? '', 'congress/legislators'));
    const file = join(dataDir ?? '', 'congress/trades-senate/jeremiak-scraper/transactions.csv');
    const first = await cli('import', 'trades', file);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/507 rows/);
    expect(first.out).toMatch(/imported 507 new trades/);
    const second = await cli('import', 'trades', file);
    expect(second.out).toMatch(/imported 0 new trades, merged 0, unchanged 507/);
  });
});
