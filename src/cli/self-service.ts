// `dcledger accounts operator|role|outbox` and `dcledger payments list|confirm|cancel`: what an operator
// does for the account area from the terminal.

import type { Kysely } from 'kysely';
import { outboxMailer, smtpMailer } from '../accounts/mailer.js';
import { confirmIntent, manualProvider, pendingIntents, stripeProvider } from '../accounts/payments.js';
import { audit, type SelfServiceDeps } from '../accounts/self-service.js';
import { randomToken } from '../accounts/sessions.js';
import { type Config, loadConfig } from '../config.js';
import { ApiError } from '../errors.js';
import { openMigratedStore } from '../storage/open.js';
import { findAccount, welcomeCounts } from '../storage/repositories/accounts.js';
import { findIntent, mailTo, setOperator, settleIntent } from '../storage/repositories/self-service.js';
import type { Database } from '../storage/schema.js';
import { wholeNumber } from './accounts.js';
import { CommandError, printJson, printLine } from './output.js';

async function withDb<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const store = await openMigratedStore(loadConfig().database);
  try {
    return await work(store.db);
  } catch (error) {
    if (error instanceof ApiError) throw new CommandError(error.detail);
    throw error;
  } finally {
    await store.close();
  }
}

function intentId(value: string): number {
  const id = wholeNumber('intent id', value);
  if (id === undefined || id < 1) throw new CommandError('an intent id is required');
  return id;
}

/**
 * Makes an account an operator (sees /ui/admin, GET /account/admin and the review queue at
 * /ui/review), or takes that away with --revoke.
 */
export async function accountsOperator(account: string, options: { revoke?: boolean }) {
  await withDb(async (db) => {
    const found = await findAccount(db, account);
    if (!found) throw new CommandError(`no account ${account}`);
    const now = new Date();
    await setOperator(db, found.id, !options.revoke, now.toISOString());
    await audit(
      db,
      found.id,
      options.revoke ? 'operator.revoked' : 'operator.granted',
      null,
      now,
      'operator',
    );
    printLine(`${found.email} is ${options.revoke ? 'no longer an' : 'now an'} operator`);
  });
}

/** The roles `dcledger accounts role` grants; `none` takes every role away. */
export const ACCOUNT_ROLES = ['operator', 'none'] as const;

/**
 * Gives an account a role: `operator` (the admin view, the review queue at /ui/review) or `none`.
 * The same as `accounts operator [--revoke]`, by the role's name.
 */
export async function accountsRole(account: string, role: string) {
  if (!(ACCOUNT_ROLES as readonly string[]).includes(role))
    throw new CommandError(`unknown role "${role}": use ${ACCOUNT_ROLES.join(' or ')}`, 2);
  await accountsOperator(account, { revoke: role === 'none' });
}

/** Prints the development mail outbox for one address (when no SMTP server is configured). */
export async function accountsOutbox(email: string) {
  await withDb(async (db) => printJson(await mailTo(db, email.trim().toLowerCase())));
}

export async function paymentsList() {
  await withDb(async (db) => printJson(await pendingIntents(db)));
}

export async function paymentsConfirm(id: string) {
  await withDb(async (db) =>
    printJson(await confirmIntent(db, { id: intentId(id) }, 'operator', new Date())),
  );
}

export async function paymentsCancel(id: string) {
  await withDb(async (db) => {
    const intent = await findIntent(db, { id: intentId(id) });
    if (!intent) throw new CommandError(`no payment intent ${id}`);
    const now = new Date();
    if (!(await settleIntent(db, intent.id, 'cancelled', now.toISOString())))
      throw new CommandError(`payment intent ${id} is already ${intent.status}`);
    await audit(db, intent.account_id, 'topup.cancelled', `intent ${intent.id}`, now, 'operator');
    printLine(`payment intent ${id} cancelled`);
  });
}

/**
 * Mail and payments of the account area as configured: SMTP or the outbox table, Stripe or manual.
 * `withMailbox`: open the development mailbox page (no SMTP only), in the process that prints its
 * address at start; an api-role instance never says it, so it opens none.
 */
export function selfServiceFromConfig(
  config: Config,
  db: Kysely<Database>,
  withMailbox: boolean,
): SelfServiceDeps {
  const settings = config.selfService;
  return {
    mailer: settings.smtpUrl
      ? smtpMailer(settings.smtpUrl, settings.mailFrom)
      : outboxMailer(db, () => new Date()),
    payments: settings.stripe ? stripeProvider(settings.stripe) : manualProvider,
    stripeWebhookSecret: settings.stripe?.webhookSecret,
    ingestIntervalMinutes: config.ingest.intervalMinutes > 0 ? config.ingest.intervalMinutes : undefined,
    // A new secret each start: the mailbox page lives as long as this process.
    devMailboxToken: settings.smtpUrl || !withMailbox ? undefined : randomToken(24),
    maxKeysPerAccount: settings.maxKeysPerAccount,
  };
}

/** What `serve` says once it listens: where to go, what runs, how to get a key. */
export async function printWelcome(
  db: Kysely<Database>,
  config: Config,
  address: string,
  ingesting: boolean,
  mailboxToken?: string,
): Promise<void> {
  const base = config.publicUrl ?? address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  const { accounts, trades, companies } = await welcomeCounts(db);
  printLine('');
  printLine(`dcledger is running at ${base}/`);
  printLine(
    `  account area:  ${base}/ui/signup (sign up, follow the mailed link: a key with 750 free credits)`,
  );
  printLine(`  API reference: ${base}/docs`);
  printLine(`  status:        ${base}/status`);
  if (ingesting) {
    printLine(
      `Ingestion of the official sites (${config.ingest.sources.join(', ')}) has begun and repeats every ${config.ingest.intervalMinutes} minutes; watch it at ${base}/status or in this log.`,
    );
  } else {
    printLine('Scheduled ingestion is off here; run `dcledger ingest` to read the official sites once.');
  }
  if (trades === 0) printLine('The database holds no trades yet: the first run takes a while.');
  if (companies === 0 && config.ingest.ocr) {
    // Scans are read as they come: without issuer names most of their rows wait for a person.
    printLine(
      "No companies yet: scanned filings' asset names are checked against none, so most of their rows wait for review. `dcledger companies import --from-sec` (with DCLEDGER_SEC_CONTACT set) or `dcledger companies import <file>` adds them, as does a first `dcledger ingest sec`; the next ingest run then reads those scans again.",
    );
  }
  if (accounts === 0) {
    printLine(
      'No accounts yet: sign up in the browser, or run `dcledger accounts create --email you@example.org` for a key in the terminal.',
    );
  }
  if (!config.selfService.smtpUrl) {
    printLine(
      'Mail is not sent (no DCLEDGER_SMTP_URL): it waits in the outbox table, with the link that finishes a sign-up.',
    );
    if (mailboxToken)
      printLine(`  read it here:  ${base}/ui/mailbox?token=${mailboxToken} (this process only)`);
    printLine('  or run `dcledger accounts outbox <email>`.');
  }
  printLine('');
}
