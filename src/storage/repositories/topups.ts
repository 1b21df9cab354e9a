// Top-ups: the payments that bought credits (the credits themselves are a ledger line, the payment
// intent behind one is in self-service.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { counted } from './account-writes.js';

export async function insertTopup(
  db: Kysely<Database>,
  topup: { accountId: number; amountCents: number; credits: number; paidAt: string },
  now: string,
) {
  await counted(
    db
      .insertInto('topups')
      .values({
        account_id: topup.accountId,
        amount_cents: topup.amountCents,
        credits: topup.credits,
        paid_at: topup.paidAt,
        created_at: now,
      })
      .execute(),
  );
}

/** Dollars topped up with a payment date in [from, to]. */
export async function dollarsToppedUp(
  db: Kysely<Database>,
  accountId: number,
  from: string,
  to: string,
): Promise<number> {
  const row = await db
    .selectFrom('topups')
    .select((eb) => eb.fn.sum<number>('amount_cents').as('cents'))
    .where('account_id', '=', accountId)
    .where('paid_at', '>=', from)
    .where('paid_at', '<=', to)
    .executeTakeFirst();
  return Number(row?.cents ?? 0) / 100;
}
