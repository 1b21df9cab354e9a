// What an operator sees of the service's accounts (GET /account/admin and the /ui admin page):
// accounts with their plans, grants and key counts, revoked keys, and pending top-ups.
import type { Kysely } from 'kysely';
import { pendingIntents } from '../accounts/payments.js';
import { listAccountsForAdmin, revokedKeysForAdmin } from '../storage/repositories/self-service.js';
import type { Database } from '../storage/schema.js';

export async function adminOverview(db: Kysely<Database>) {
  const [accounts, revokedKeys, pending] = await Promise.all([
    listAccountsForAdmin(db, 500),
    revokedKeysForAdmin(db, 200),
    pendingIntents(db),
  ]);
  return {
    accounts: accounts.map((account) => ({
      ...account,
      operator: account.is_operator === 1,
      email_verified: account.email_verified_at !== null,
      active_keys: Number(account.active_keys ?? 0),
      granted: Number(account.granted ?? 0),
    })),
    revoked_keys: revokedKeys,
    pending_topups: pending,
  };
}
