// The credit ledger: the lines that grant, top up, allow and lapse credits, and its reads. Its sum
// is the account's balance; the charge lines are written by storage/charges/.
import { type Kysely, sql } from 'kysely';
import type { LedgerKind } from '../ledger-kinds.js';
import type { Database } from '../schema.js';
import { inTransaction } from '../transaction.js';
import { counted } from './account-writes.js';

/** A ledger line that records an allowance granted or lapsed (the account row holds the allowance). */
export async function ledgerLine(
  db: Kysely<Database>,
  accountId: number,
  kind: Extract<LedgerKind, 'allowance' | 'lapse'>,
  amount: number,
  note: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('credit_ledger')
    .values({
      account_id: accountId,
      key_id: null,
      kind,
      amount,
      request_id: null,
      route: null,
      note,
      created_at: now,
    })
    .execute();
}

/** The ledger line of a new account's first allowance (the allowance itself is on the account). */
export async function recordAllowance(
  db: Kysely<Database>,
  accountId: number,
  allowance: number,
  periodStart: string,
  now: string,
): Promise<void> {
  await ledgerLine(db, accountId, 'allowance', allowance, `period from ${periodStart}`, now);
}

export async function addCredits(
  db: Kysely<Database>,
  entry: {
    accountId: number;
    credits: number;
    kind: Extract<LedgerKind, 'grant' | 'topup'>;
    note: string | null;
  },
  now: string,
) {
  const add = inTransaction(db, async (trx) => {
    const account = await trx
      .updateTable('accounts')
      .set({ credits: sql<number>`credits + ${entry.credits}`, updated_at: now })
      .where('id', '=', entry.accountId)
      .returning(['allowance', 'credits'])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('credit_ledger')
      .values({
        account_id: entry.accountId,
        key_id: null,
        kind: entry.kind,
        amount: entry.credits,
        request_id: null,
        route: null,
        note: entry.note,
        created_at: now,
      })
      .execute();
    return account;
  });
  return counted(add);
}

export async function ledgerSum(db: Kysely<Database>, accountId: number, kind?: LedgerKind): Promise<number> {
  let query = db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.sum<number>('amount').as('total'))
    .where('account_id', '=', accountId);
  if (kind) query = query.where('kind', '=', kind);
  const row = await query.executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function ledgerOf(db: Kysely<Database>, accountId: number, limit: number, beforeId?: number) {
  let query = db
    .selectFrom('credit_ledger')
    .select(['id', 'kind', 'amount', 'key_id', 'route', 'request_id', 'note', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(limit);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  return query.execute();
}
