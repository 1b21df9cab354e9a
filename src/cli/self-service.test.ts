// `dcledger payments` and `dcledger accounts operator|role|outbox`, in-process against a SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMailer } from '../accounts/mailer.js';
import { manualProvider, requestTopup } from '../accounts/payments.js';
import { MemoryRateLimitStore } from '../accounts/rate-limit.js';
import { confirmSignUp, signUp } from '../accounts/self-service.js';
import { loadConfig } from '../config.js';
import { openMigratedStore } from '../storage/open.js';
import { findCredentials, mailTo } from '../storage/repositories/self-service.js';
import { runCli as cli } from '../test-support/cli.js';
import { selfServiceFromConfig } from './self-service.js';

const dir = mkdtempSync(join(tmpdir(), 'dcledger-self-cli-'));
const dbFile = join(dir, 'cli.db');
// After every describe of the file: the mailbox's test writes into the same directory.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dcledger payments and operators', () => {
  let accountId = 0;
  let intentId = 0;
  beforeAll(async () => {
    process.env.DCLEDGER_DB = dbFile;
    delete process.env.DATABASE_URL;
    const store = await openMigratedStore({ kind: 'sqlite', file: dbFile });
    try {
      const now = new Date();
      const context = {
        db: store.db,
        mailer: outboxMailer(store.db, () => now),
        throttle: new MemoryRateLimitStore(),
        linkBase: 'http://127.0.0.1',
        ip: '127.0.0.1',
        now,
      };
      await signUp(context, { email: 'cli@example.org', password: 'long enough password' });
      const [mail] = await mailTo(store.db, 'cli@example.org');
      const token = /Token: (\S+)/.exec(mail?.body ?? '')?.[1] ?? '';
      const { account } = await confirmSignUp(context, token);
      accountId = account.account_id;
      const intent = await requestTopup(
        store.db,
        manualProvider,
        { accountId, email: 'cli@example.org', dollars: 12.5, returnUrl: 'http://127.0.0.1/ui/credits' },
        now,
      );
      intentId = intent.intent_id;
    } finally {
      await store.close();
    }
  });

  it('lists and confirms a pending top-up once', async () => {
    const listed = await cli('payments', 'list');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toEqual([
      expect.objectContaining({ id: intentId, amount_cents: 1250, status: 'pending' }),
    ]);
    const confirmed = await cli('payments', 'confirm', String(intentId));
    expect(confirmed.code).toBe(0);
    expect(JSON.parse(confirmed.out)).toMatchObject({
      intent_id: intentId,
      credits: 12_500,
      balance: 13_250,
    });
    const again = await cli('payments', 'confirm', String(intentId));
    expect(again.code).not.toBe(0);
    expect(again.err).toMatch(/already paid/);
    expect((await cli('payments', 'cancel', String(intentId))).err).toMatch(/already paid/);
    expect((await cli('payments', 'confirm', 'x')).err).toMatch(/whole number/);
  });

  it('makes an account an operator and shows its mail outbox', async () => {
    expect((await cli('accounts', 'operator', 'cli@example.org')).out).toContain('now an operator');
    const store = await openMigratedStore({ kind: 'sqlite', file: dbFile });
    try {
      expect((await findCredentials(store.db, accountId))?.is_operator).toBe(1);
    } finally {
      await store.close();
    }
    expect((await cli('accounts', 'operator', 'nobody@example.org')).err).toMatch(/no account/);
    const outbox = JSON.parse((await cli('accounts', 'outbox', 'CLI@example.org')).out) as Array<{
      subject: string;
    }>;
    expect(outbox.map((mail) => mail.subject)).toEqual([
      'Confirm your address to finish signing up to dcledger',
    ]);
  });

  it('grants the operator role by name, takes it away with none, and refuses an unknown role', async () => {
    const isOperator = async () => {
      const store = await openMigratedStore({ kind: 'sqlite', file: dbFile });
      try {
        return (await findCredentials(store.db, accountId))?.is_operator;
      } finally {
        await store.close();
      }
    };
    await cli('accounts', 'role', 'cli@example.org', 'none');
    expect(await isOperator()).toBe(0);
    const granted = await cli('accounts', 'role', 'cli@example.org', 'operator');
    expect(granted).toMatchObject({ code: 0, out: expect.stringContaining('now an operator') });
    expect(await isOperator()).toBe(1);
    const unknown = await cli('accounts', 'role', 'cli@example.org', 'admin');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown role "admin": use operator or none');
    expect(await isOperator()).toBe(1);
    expect((await cli('accounts', 'role', 'nobody@example.org', 'operator')).err).toMatch(/no account/);
    const taken = await cli('accounts', 'role', 'cli@example.org', 'none');
    expect(taken).toMatchObject({ code: 0, out: expect.stringContaining('no longer an operator') });
    expect(await isOperator()).toBe(0);
    // `accounts operator` keeps working beside it.
    await cli('accounts', 'operator', 'cli@example.org');
    expect(await isOperator()).toBe(1);
  });
});

describe('the development mailbox', () => {
  it('opens only in the process that prints its address, and never when mail goes out by SMTP', async () => {
    const store = await openMigratedStore({ kind: 'sqlite', file: join(dir, 'mailbox.db') });
    try {
      const local = loadConfig({ DCLEDGER_DB: join(dir, 'mailbox.db') });
      const printed = selfServiceFromConfig(local, store.db, true).devMailboxToken;
      expect(printed).toMatch(/^\S{24,}$/);
      expect(selfServiceFromConfig(local, store.db, true).devMailboxToken).not.toBe(printed);
      expect(selfServiceFromConfig(local, store.db, false).devMailboxToken).toBeUndefined();
      const smtp = loadConfig({
        DCLEDGER_DB: join(dir, 'mailbox.db'),
        DCLEDGER_SMTP_URL: 'smtp://127.0.0.1:2525',
        DCLEDGER_PUBLIC_URL: 'https://dcledger.example.org',
      });
      expect(selfServiceFromConfig(smtp, store.db, true).devMailboxToken).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
