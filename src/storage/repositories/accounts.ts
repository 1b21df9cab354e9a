// Accounts: creating and finding one, its plan, period and allowance, its custom rate limit. Keys
// are in api-keys.ts, the credit ledger in credit-ledger.ts, top-ups in topups.ts, the request log
// in request-log.ts; the charge of a metered call and its refund are the charge engine's, in
// storage/charges/.
import type { Kysely, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Database } from '../schema.js';
import { inTransaction } from '../transaction.js';
import { counted } from './account-writes.js';
import { ledgerLine } from './credit-ledger.js';

export async function insertAccount(
  db: Kysely<Database>,
  account: {
    email: string;
    plan: string;
    trialEndsAt: string | null;
    periodStart: string;
    allowance: number;
    credits: number;
  },
  now: string,
) {
  return db
    .insertInto('accounts')
    .values({
      email: account.email,
      plan: account.plan,
      trial_ends_at: account.trialEndsAt,
      period_start: account.periodStart,
      allowance: account.allowance,
      credits: account.credits,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The largest id the accounts table holds on PostgreSQL (serial): a larger number names nobody. */
const MAX_ACCOUNT_ID = 2_147_483_647;

/** An account by id (all digits) or e-mail address; undefined when none. */
export async function findAccount(db: Kysely<Database>, idOrEmail: string) {
  const query = db.selectFrom('accounts').selectAll();
  if (!/^\d+$/.test(idOrEmail)) return query.where('email', '=', idOrEmail.toLowerCase()).executeTakeFirst();
  const id = Number(idOrEmail);
  // Asked of PostgreSQL, an id past its integer column is an error, not "no such account".
  return id > MAX_ACCOUNT_ID ? undefined : query.where('id', '=', id).executeTakeFirst();
}

export async function updatePlan(
  db: Kysely<Database>,
  accountId: number,
  plan: { plan: string; trialEndsAt: string | null; periodStart: string; allowance: number },
  now: string,
): Promise<boolean> {
  return replaceAllowance(
    db,
    accountId,
    { plan: plan.plan, trial_ends_at: plan.trialEndsAt, period_start: plan.periodStart },
    plan.allowance,
    `${plan.plan} from ${plan.periodStart}`,
    now,
  );
}

/** A trial that ended unpaid: the account is back on no plan and what was left of the allowance lapses. */
export async function endTrial(
  db: Kysely<Database>,
  accountId: number,
  plan: string,
  now: string,
): Promise<void> {
  await replaceAllowance(
    db,
    accountId,
    { plan: 'none', trial_ends_at: null },
    0,
    'trial ended',
    now,
    (query) => query.where('plan', '=', plan).where('trial_ends_at', 'is not', null),
  );
}

type AccountUpdate = UpdateQueryBuilder<Database, 'accounts', 'accounts', UpdateResult>;

/**
 * The one way an account's allowance is replaced (a new period, a plan change, a trial's end), so
 * that the ledger's sum stays the balance: what was left of the old allowance lapses (a `lapse`
 * line of minus that) and the new one is granted (an `allowance` line). The first statement takes
 * the account row's lock (a row lock on PostgreSQL, the write lock on SQLite) and reads what is
 * left, so no charge can move it before it is replaced. `only` narrows the account row (compare
 * and set); false when it matched none.
 */
async function replaceAllowance(
  db: Kysely<Database>,
  accountId: number,
  fields: { plan?: string; trial_ends_at?: string | null; period_start?: string },
  allowance: number,
  note: string,
  now: string,
  only: (query: AccountUpdate) => AccountUpdate = (query) => query,
): Promise<boolean> {
  const replace = inTransaction(db, async (trx) => {
    const held = await only(trx.updateTable('accounts').set({ updated_at: now }).where('id', '=', accountId))
      .returning('allowance')
      .executeTakeFirst();
    if (!held) return false;
    await trx
      .updateTable('accounts')
      .set({ ...fields, allowance, updated_at: now })
      .where('id', '=', accountId)
      .execute();
    if (held.allowance > 0)
      await ledgerLine(trx, accountId, 'lapse', -held.allowance, `allowance left, ${note}`, now);
    if (allowance > 0) await ledgerLine(trx, accountId, 'allowance', allowance, note, now);
    return true;
  });
  return counted(replace);
}

/** Sets (or, with null, clears) an account's custom per-minute request limit; false if no such account. */
export async function setRequestsPerMinute(
  db: Kysely<Database>,
  accountId: number,
  requestsPerMinute: number | null,
  now: string,
) {
  const result = await counted(
    db
      .updateTable('accounts')
      .set({ requests_per_minute: requestsPerMinute, updated_at: now })
      .where('id', '=', accountId)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Starts a new billing period: the allowance becomes the plan's monthly credits and what was left
 * of the last one lapses. Compare-and-set on the old period start, so that concurrent requests
 * renew it once.
 */
export async function renewPeriod(
  db: Kysely<Database>,
  accountId: number,
  fromPeriod: string,
  toPeriod: string,
  allowance: number,
  now: string,
): Promise<boolean> {
  return replaceAllowance(
    db,
    accountId,
    { period_start: toPeriod },
    allowance,
    `period from ${toPeriod}`,
    now,
    (query) => query.where('period_start', '=', fromPeriod),
  );
}

/** How many accounts, trades and companies there are: what `serve` says on a first run. */
export async function welcomeCounts(
  db: Kysely<Database>,
): Promise<{ accounts: number; trades: number; companies: number }> {
  const [accounts, trades, companies] = await Promise.all(
    (['accounts', 'trades', 'companies'] as const).map((table) =>
      db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst(),
    ),
  );
  return {
    accounts: Number(accounts?.n ?? 0),
    trades: Number(trades?.n ?? 0),
    companies: Number(companies?.n ?? 0),
  };
}
