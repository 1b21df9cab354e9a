// Webhook secrets are sealed by default. Without DCLEDGER_WEBHOOK_SECRET_KEY, `dcledger serve` (a
// real process) generates a key file in the data directory (mode 0600), seals the secrets an older
// version stored in clear, stores new ones sealed, reads the same key when started again, and its
// deliveries verify with the subscribers' secrets. SQLite by default, PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL (the data directory is then the archive's parent).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config/read.js';
import { parseCidrList } from '../config/webhooks.js';
import type { DatabaseConfig } from '../config.js';
import { emitEvent } from '../storage/repositories/events.js';
import { addAccount, type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';
import { cliEnv, exited, type SpawnedCli, spawnCli, until } from '../test-support/cli.js';
import { freePort } from '../test-support/ports.js';
import { TestReceiver } from '../test-support/webhooks.js';
import { LOBBYING_FILED_EXAMPLE } from './event-catalog.js';
import { eventFor } from './events.js';
import { createWebhookRuntime } from './runtime.js';
import { defaultKeyFile, KEY_FILE_NAME, webhookSecretKey } from './secret-key.js';
import { SecretBox } from './secrets.js';
import { verifyWebhook } from './verify.js';

const OLD_SECRET = 'stored-in-clear-secret-0123';
const NEW_SECRET = 'created-after-upgrade-secret-4567';

describe('the key file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dcledger-key-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is created once with mode 0600 and read back on later starts; the setting wins over it', () => {
    const file = join(dir, 'data', KEY_FILE_NAME);
    const first = webhookSecretKey({ secretKey: null, secretKeyFile: undefined }, file);
    expect(first.source).toBe('generated');
    expect(first.key).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first.key);
    const again = webhookSecretKey({ secretKey: null, secretKeyFile: undefined }, file);
    expect(again).toMatchObject({ source: 'file', file, warning: undefined });
    expect(again.key).toEqual(first.key);
    const configured = Buffer.alloc(32, 3);
    expect(webhookSecretKey({ secretKey: configured, secretKeyFile: file }, file)).toEqual({
      key: configured,
      source: 'setting',
    });
    // DCLEDGER_WEBHOOK_SECRET_KEY_FILE names another file.
    const named = join(dir, 'elsewhere', 'key');
    expect(webhookSecretKey({ secretKey: null, secretKeyFile: named }, file).file).toBe(named);
  });

  it('a file others may read is used with a warning; a file without a key is refused', () => {
    const open = join(dir, 'open.key');
    writeFileSync(open, `${'ab'.repeat(32)}\n`, { mode: 0o644 });
    const read = webhookSecretKey({ secretKey: null, secretKeyFile: open }, open);
    expect(read.key).toEqual(Buffer.alloc(32, 0xab));
    expect(read.warning).toMatch(/readable by other users \(mode 0644\)/);
    const broken = join(dir, 'broken.key');
    writeFileSync(broken, 'not a key\n', { mode: 0o600 });
    expect(() => webhookSecretKey({ secretKey: null, secretKeyFile: broken }, broken)).toThrow(ConfigError);
  });

  it('lives beside the SQLite database, or in the archive directory’s parent', () => {
    expect(defaultKeyFile({ kind: 'sqlite', file: '/srv/dc/db.sqlite' }, './var/archive')).toBe(
      `/srv/dc/${KEY_FILE_NAME}`,
    );
    expect(defaultKeyFile({ kind: 'postgres', url: 'postgres://x/y' }, '/var/lib/dcledger/archive')).toBe(
      `/var/lib/dcledger/${KEY_FILE_NAME}`,
    );
    expect(defaultKeyFile({ kind: 'sqlite', file: ':memory:' }, './var/archive')).toBe(
      join('var', KEY_FILE_NAME),
    );
  });
});

describe('dcledger serve without DCLEDGER_WEBHOOK_SECRET_KEY', () => {
  let ctx: FixtureApp;
  let receiver: TestReceiver;
  let archiveDir: string;
  beforeAll(async () => {
    // The app of an older version: no key, secrets stored in clear.
    const clearRuntime = createWebhookRuntime({
      allowCidrs: parseCidrList('127.0.0.1/32'),
      secretKey: null,
      timeoutMs: 5000,
    });
    ctx = await openEmptyApp(new Date(), { webhooks: clearRuntime });
    archiveDir = join(mkdtempSync(join(tmpdir(), 'dcledger-key-data-')), 'archive');
    receiver = await TestReceiver.start(() => ({ status: 204 }));
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
    rmSync(dirname(archiveDir), { recursive: true, force: true });
  });

  function startServe(database: DatabaseConfig, port: number): SpawnedCli {
    const env = cliEnv(database, {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DCLEDGER_INGEST_INTERVAL_MINUTES: '0',
      DCLEDGER_PRICE_REFRESH_AT: 'off',
      DCLEDGER_ARCHIVE_DIR: archiveDir,
      DCLEDGER_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      DCLEDGER_WEBHOOK_POLL_MS: '100',
    });
    delete env.DCLEDGER_WEBHOOK_SECRET_KEY;
    delete env.DCLEDGER_WEBHOOK_SECRET_KEY_FILE;
    return spawnCli(['serve'], env);
  }

  const storedSecrets = async () =>
    (await ctx.store.db.selectFrom('webhook_subscriptions').select('secret').orderBy('id').execute()).map(
      (row) => row.secret,
    );

  async function emitAndVerify(serve: SpawnedCli, n: number, expected: number): Promise<void> {
    await emitEvent(
      ctx.store.db,
      eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id: n, filing_uuid: `key-${n}` }),
      new Date().toISOString(),
    );
    await receiver.waitFor(expected, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${serve.output()}`);
    });
  }

  it('generates the key file (0600), seals old and new secrets, reads the same key after a restart, signs with the secrets', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const headers = { 'dc-api-key': account.key.api_key };
    const old = await requestJson(
      ctx,
      {
        method: 'POST',
        url: '/alerts/subscriptions',
        body: { alert_type: 'lobbying.filed', webhook_url: receiver.url('/old'), webhook_secret: OLD_SECRET },
      },
      headers,
    );
    expect(old.status).toBe(200);
    expect((await storedSecrets()).map((secret) => SecretBox.isClear(secret))).toEqual([true]);

    const database = ctx.store.config;
    const file =
      database.kind === 'sqlite'
        ? join(dirname(database.file), KEY_FILE_NAME)
        : join(dirname(archiveDir), KEY_FILE_NAME);
    let port = await freePort();
    let serve = startServe(database, port);
    let base = `http://127.0.0.1:${port}`;
    await until(
      async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status === 200,
      90_000,
      serve.output,
    );

    // The data directory holds the key, readable by its owner only.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    expect(key).toHaveLength(32);
    const fingerprint = new SecretBox(key).fingerprint;
    expect(serve.output()).toContain('webhook secret key generated');
    // The secret stored in clear before is sealed now.
    await until(
      async () => (await storedSecrets())[0]?.startsWith(`v1:${fingerprint}:`) ?? false,
      30_000,
      serve.output,
    );

    // A subscription created through the running service is stored sealed, never as plain text.
    const created = await fetch(`${base}/alerts/subscriptions`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        alert_type: 'lobbying.filed',
        webhook_url: receiver.url('/new'),
        webhook_secret: NEW_SECRET,
      }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const stored = await storedSecrets();
    expect(stored).toHaveLength(2);
    for (const [index, secret] of stored.entries()) {
      expect(secret.startsWith(`v1:${fingerprint}:`)).toBe(true);
      for (const plain of [OLD_SECRET, NEW_SECRET]) {
        expect(secret).not.toContain(plain);
        expect(secret).not.toContain(Buffer.from(plain).toString('base64url'));
      }
      expect(new SecretBox(key).open(secret)).toBe([OLD_SECRET, NEW_SECRET][index]);
    }

    await emitAndVerify(serve, 1, 2);
    serve.child.kill('SIGTERM');
    expect((await exited(serve.child)).code, serve.output()).toBe(0);
    expect(serve.output()).not.toContain(NEW_SECRET);
    expect(serve.output()).not.toContain(key.toString('base64'));

    // Started again: the same key, read from the file, opens both secrets.
    port = await freePort();
    serve = startServe(database, port);
    base = `http://127.0.0.1:${port}`;
    await until(
      async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status === 200,
      90_000,
      serve.output,
    );
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(key);
    expect(serve.output()).not.toContain('webhook secret key generated');
    await emitAndVerify(serve, 2, 4);
    serve.child.kill('SIGTERM');
    expect((await exited(serve.child)).code, serve.output()).toBe(0);
    expect(serve.output()).not.toContain('sealed with another key');

    expect(receiver.received).toHaveLength(4);
    for (const delivery of receiver.received) {
      const secret = delivery.path === '/old' ? OLD_SECRET : NEW_SECRET;
      const verified = verifyWebhook(delivery.body, delivery.headers, secret, { toleranceSeconds: null });
      expect(verified.ok, `${delivery.path} signed with its subscriber's secret`).toBe(true);
    }
    expect(receiver.received.map((delivery) => delivery.path).sort()).toEqual([
      '/new',
      '/new',
      '/old',
      '/old',
    ]);
  }, 300_000);
});
