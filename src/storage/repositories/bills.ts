// Bills, upserted by their id.
import type { Kysely } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import type { BillsTable, Database } from '../schema.js';

export type BillWrite = Omit<BillsTable, 'updated_at'>;

export async function saveBills(
  db: Kysely<Database>,
  bills: readonly BillWrite[],
  now: string,
): Promise<{ inserted: number; updated: number }> {
  const existing = new Map(
    (await db.selectFrom('bills').selectAll().execute()).map((bill) => [bill.id, bill] as const),
  );
  let inserted = 0;
  let updated = 0;
  const fresh: BillsTable[] = [];
  for (const bill of bills) {
    const known = existing.get(bill.id);
    if (!known) {
      fresh.push({ ...bill, updated_at: now });
      inserted += 1;
      continue;
    }
    const changed = (Object.keys(bill) as (keyof BillWrite)[]).some(
      (key) => bill[key] !== null && bill[key] !== known[key],
    );
    if (!changed) continue;
    // A later document completes a bill; a field it lacks keeps what an earlier one gave.
    const merged = Object.fromEntries(Object.entries(bill).filter(([, value]) => value !== null));
    await db
      .updateTable('bills')
      .set({ ...merged, updated_at: now })
      .where('id', '=', bill.id)
      .execute();
    updated += 1;
  }
  for (const batch of chunk(fresh, rowsPerInsert(13))) await db.insertInto('bills').values(batch).execute();
  return { inserted, updated };
}
