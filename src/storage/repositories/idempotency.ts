// Idempotency keys (migration 0015): a request claims (scope, key) with a unique row before it runs,
// so two concurrent duplicates cannot both execute; the first answer is stored on the row.
import type { Kysely, Selectable } from 'kysely';
import type { IdempotencyKeysTable } from '../schema/accounts.js';
import type { Database } from '../schema.js';

export type IdempotencyRow = Selectable<IdempotencyKeysTable>;

export interface IdempotencyClaim {
  scope: string;
  keyHash: string;
  route: string;
  requestHash: string;
  now: string;
  expiresAt: string;
}

/**
 * Claims the key for this request: true when this request now owns it (it runs), false when a row
 * already exists (the caller reads it). An expired row of the same key is removed first.
 */
export async function claimIdempotencyKey(db: Kysely<Database>, claim: IdempotencyClaim): Promise<boolean> {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', claim.scope)
    .where('key_hash', '=', claim.keyHash)
    .where('expires_at', '<=', claim.now)
    .execute();
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      scope: claim.scope,
      key_hash: claim.keyHash,
      route: claim.route,
      request_hash: claim.requestHash,
      state: 'pending',
      status: null,
      headers: null,
      body: null,
      created_at: claim.now,
      expires_at: claim.expiresAt,
    })
    .onConflict((conflict) => conflict.columns(['scope', 'key_hash']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findIdempotencyKey(
  db: Kysely<Database>,
  scope: string,
  keyHash: string,
): Promise<IdempotencyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('scope', '=', scope)
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Stores the first answer on the claimed row. */
export async function completeIdempotencyKey(
  db: Kysely<Database>,
  scope: string,
  keyHash: string,
  answer: { status: number; headers: string; body: string | null },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', status: answer.status, headers: answer.headers, body: answer.body })
    .where('scope', '=', scope)
    .where('key_hash', '=', keyHash)
    .where('state', '=', 'pending')
    .execute();
}

/** Gives a pending claim up (the request failed), so a retry with the same key runs again. */
export async function releaseIdempotencyKey(
  db: Kysely<Database>,
  scope: string,
  keyHash: string,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', scope)
    .where('key_hash', '=', keyHash)
    .where('state', '=', 'pending')
    .execute();
}

/** Removes every expired key; returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Kysely<Database>, now: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
