// Secrets stored in clear are sealed under the configured key by `dcledger webhooks reseal`;
// they open to the same secret; without a configured key the command uses the key file.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCidrList } from '../config/webhooks.js';
import { type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';
import { runCli } from '../test-support/cli.js';
import { resealClearSecrets } from './reseal.js';
import { createWebhookRuntime } from './runtime.js';
import { SecretBox } from './secrets.js';

const KEY = Buffer.alloc(32, 9);

describe('webhooks reseal', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    const clearRuntime = createWebhookRuntime({
      allowCidrs: parseCidrList('127.0.0.1/32'),
      secretKey: null,
      timeoutMs: 5000,
    });
    ctx = await openEmptyApp(new Date(), { webhooks: clearRuntime });
  });
  afterAll(async () => ctx.close());
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('seals clear-text secrets without changing them', async () => {
    const secrets = ['first-secret-0123456789', 'second-secret-0123456789'];
    for (const secret of secrets) {
      const created = await requestJson(ctx, {
        method: 'POST',
        url: '/alerts/subscriptions',
        body: { alert_type: 'trade.created', webhook_url: 'http://127.0.0.1:9/hook', webhook_secret: secret },
      });
      expect(created.status).toBe(200);
    }
    const before = await ctx.store.db.selectFrom('webhook_subscriptions').select(['id', 'secret']).execute();
    expect(before.every((row) => SecretBox.isClear(row.secret))).toBe(true);

    expect(await resealClearSecrets(ctx.store.db, KEY, new Date())).toEqual({ found: 2, sealed: 2 });
    const after = await ctx.store.db
      .selectFrom('webhook_subscriptions')
      .select(['id', 'secret'])
      .orderBy('id')
      .execute();
    const box = new SecretBox(KEY);
    expect(after.map((row) => row.secret.startsWith('v1:'))).toEqual([true, true]);
    expect(after.map((row) => box.open(row.secret))).toEqual(secrets);
    expect(after.some((row) => row.secret.includes('secret-0123'))).toBe(false);
    expect(await resealClearSecrets(ctx.store.db, KEY, new Date())).toEqual({ found: 0, sealed: 0 });
  });

  it('the command, without DCLEDGER_WEBHOOK_SECRET_KEY, seals under the key file it creates', async () => {
    const created = await requestJson(ctx, {
      method: 'POST',
      url: '/alerts/subscriptions',
      body: {
        alert_type: 'trade.created',
        webhook_url: 'http://127.0.0.1:9/hook',
        webhook_secret: 'third-secret-0123456789',
      },
    });
    expect(created.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'dcledger-reseal-'));
    try {
      const file = join(dir, 'webhook-secret.key');
      const database = ctx.store.config;
      vi.stubEnv('DCLEDGER_WEBHOOK_SECRET_KEY', '');
      vi.stubEnv('DCLEDGER_WEBHOOK_SECRET_KEY_FILE', file);
      vi.stubEnv('DATABASE_URL', database.kind === 'postgres' ? database.url : '');
      vi.stubEnv('DCLEDGER_DB', database.kind === 'sqlite' ? database.file : '');
      const outcome = await runCli('webhooks', 'reseal');
      expect(outcome.code, outcome.err).toBe(0);
      expect(outcome.out).toContain(`sealed 1 of 1 clear-text webhook secrets`);
      expect(outcome.out).toContain(`under the key in ${file}`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const box = new SecretBox(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
      const last = await ctx.store.db
        .selectFrom('webhook_subscriptions')
        .select('secret')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(last.secret.startsWith(`v1:${box.fingerprint}:`)).toBe(true);
      expect(box.open(last.secret)).toBe('third-secret-0123456789');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
