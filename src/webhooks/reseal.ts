// `dcledger webhooks reseal`: secrets stored in clear (before DCLEDGER_WEBHOOK_SECRET_KEY was set)
// are encrypted under the configured key. The secret itself does not change, so receivers keep
// verifying; only its form at rest does.
import type { Kysely } from 'kysely';
import { clearTextSecrets, replaceStoredSecret } from '../storage/repositories/webhook-subscriptions.js';
import type { Database } from '../storage/schema.js';
import { SecretBox } from './secrets.js';

export async function resealClearSecrets(
  db: Kysely<Database>,
  key: Buffer,
  now: Date,
): Promise<{ found: number; sealed: number }> {
  const box = new SecretBox(key);
  const clear = await clearTextSecrets(db);
  let sealed = 0;
  for (const row of clear) {
    const secret = box.open(row.secret);
    if (await replaceStoredSecret(db, row.id, row.secret, box.seal(secret), now.toISOString())) sealed += 1;
  }
  return { found: clear.length, sealed };
}
