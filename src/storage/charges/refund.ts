// The refund of a charged call whose answer was not delivered: the charge's reverse, written once.
import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';
import { counted } from '../repositories/account-writes.js';
import type { Database } from '../schema.js';
import { inTransaction } from '../transaction.js';

/** The request log's status for a charged call whose answer was not delivered (`refundCall`). */
export const UNDELIVERED_STATUS = 499;

/**
 * Gives back the charge of a call whose answer was not delivered: a `refund` ledger line of its
 * own beside the charge's (same request id, key and route), the amount back where the charge took
 * it from, the key's spend for the charge's day lowered by it, and the call's request-log row
 * marked undelivered (status 499, charge 0). `toAllowance`: the charge left allowance, so it was
 * taken from the allowance alone; otherwise it goes back to the credits (the one call that used up
 * the allowance took part of it from there, a split the charge's outcome does not tell). Written
 * once per request id (the ledger's unique request id and kind): a second refund of the same call
 * changes nothing. Resolves to whether it refunded.
 */
export async function refundCall(
  db: Kysely<Database>,
  call: {
    accountId: number;
    keyId: number;
    cost: number;
    requestId: string;
    route: string;
    day: string;
    /** When the charge was written: the request-log lookup walks the (key, time) index from it. */
    chargedAt: string;
    toAllowance: boolean;
    note: string;
  },
  now: string,
): Promise<boolean> {
  if (call.cost <= 0) return false;
  return counted(
    inTransaction(db, async (trx) => {
      // PostgreSQL: the key and account rows are locked first, as a charge locks them (the same
      // statement shape, so the same order). Otherwise the ledger row's foreign key would share-lock
      // the account, a charge would lock the key and wait for the account, and this refund would
      // wait for the key: a deadlock the server breaks by failing one of them.
      if (!isSqlite(trx as unknown as Kysely<unknown>))
        await trx
          .selectFrom('api_keys as k')
          .innerJoin('accounts as a', 'a.id', 'k.account_id')
          .select('k.id')
          .where('k.id', '=', call.keyId)
          .where('a.id', '=', call.accountId)
          .forUpdate(['k', 'a'])
          .execute();
      const line = await trx
        .insertInto('credit_ledger')
        .values({
          account_id: call.accountId,
          key_id: call.keyId,
          kind: 'refund',
          amount: call.cost,
          request_id: call.requestId,
          route: call.route,
          note: call.note,
          created_at: now,
        })
        .onConflict((conflict) => conflict.columns(['request_id', 'kind']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!line) return false;
      await trx
        .updateTable('accounts')
        .set(
          call.toAllowance
            ? { allowance: sql<number>`allowance + ${call.cost}`, updated_at: now }
            : { credits: sql<number>`credits + ${call.cost}`, updated_at: now },
        )
        .where('id', '=', call.accountId)
        .execute();
      await trx
        .updateTable('api_keys')
        .set({
          spent_today: sql<number>`case when spent_today >= ${call.cost} then spent_today - ${call.cost} else 0 end`,
        })
        .where('id', '=', call.keyId)
        .where('spent_day', '=', call.day)
        .execute();
      await trx
        .updateTable('request_log')
        .set({ status: UNDELIVERED_STATUS, charge: 0 })
        .where('key_id', '=', call.keyId)
        .where('created_at', '>=', call.chargedAt)
        .where('request_id', '=', call.requestId)
        .execute();
      return true;
    }),
  );
}
