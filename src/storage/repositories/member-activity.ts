// What a member did before a filing of theirs appeared: the context of disclosure.detected.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';

/** Sum of bracket upper bounds (lower bound when open-ended) of a member's trades disclosed in [from, to). */
export async function memberDisclosedVolume(
  db: Kysely<Database>,
  politicianId: number,
  from: string,
  to: string,
): Promise<number> {
  const row = await db
    .selectFrom('trades')
    .select(sql<number | null>`sum(coalesce(amount_high, amount_low))`.as('volume'))
    .where('politician_id', '=', politicianId)
    .where('superseded_by', 'is', null)
    .where('disclosure_date', '>=', from)
    .where('disclosure_date', '<', to)
    .executeTakeFirst();
  return Number(row?.volume ?? 0);
}

export async function politicianSummary(db: Kysely<Database>, politicianId: number) {
  return db
    .selectFrom('politicians')
    .select(['id', 'name', 'party', 'chamber', 'slug'])
    .where('id', '=', politicianId)
    .executeTakeFirst();
}
