// Contract awards: idempotent upsert on USAspending's award key, and the filtered list and lookup
// the API serves. A re-ingest of an unchanged award writes nothing (content_hash is equal).
import type { Kysely } from 'kysely';
import { containsInsensitive } from '../dialect.js';
import { inListOrder, type ListPage } from '../list-order.js';
import type { ContractAwardsTable } from '../schema/records.js';
import type { Database } from '../schema.js';
import type { UpsertOutcome } from './lobbying.js';

export type ContractWrite = Omit<ContractAwardsTable, 'id' | 'created_at' | 'updated_at'>;
export type ContractRow = Omit<ContractAwardsTable, 'id'> & { id: number };

export async function upsertContractAward(
  db: Kysely<Database>,
  write: ContractWrite,
  now: string,
): Promise<{ id: number; outcome: UpsertOutcome }> {
  const existing = await db
    .selectFrom('contract_awards')
    .select(['id', 'content_hash'])
    .where('award_key', '=', write.award_key)
    .executeTakeFirst();
  if (existing?.content_hash === write.content_hash) return { id: existing.id, outcome: 'unchanged' };
  if (existing) {
    await db
      .updateTable('contract_awards')
      .set({ ...write, updated_at: now })
      .where('id', '=', existing.id)
      .execute();
    return { id: existing.id, outcome: 'updated' };
  }
  const inserted = await db
    .insertInto('contract_awards')
    .values({ ...write, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: inserted.id, outcome: 'new' };
}

export async function findContractAward(db: Kysely<Database>, id: number): Promise<ContractRow | undefined> {
  return db.selectFrom('contract_awards').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface ContractFilter {
  tickers?: readonly string[];
  recipient?: string;
  agency?: string;
  dateFrom?: string;
  dateTo?: string;
  minAmount?: number;
}

/** By award date (then id); agency matches the agency or the sub-agency. */
export async function listContractAwards(
  db: Kysely<Database>,
  filter: ContractFilter,
  page: ListPage,
): Promise<ContractRow[]> {
  let query = db.selectFrom('contract_awards').selectAll();
  if (filter.tickers?.length) query = query.where('ticker', 'in', [...filter.tickers]);
  if (filter.recipient) {
    const recipient = filter.recipient;
    query = query.where((eb) =>
      eb.or([
        containsInsensitive('recipient_name', recipient),
        containsInsensitive('parent_name', recipient),
      ]),
    );
  }
  if (filter.agency) {
    const agency = filter.agency;
    query = query.where((eb) =>
      eb.or([
        containsInsensitive('awarding_agency', agency),
        containsInsensitive('awarding_sub_agency', agency),
      ]),
    );
  }
  if (filter.dateFrom) query = query.where('award_date', '>=', filter.dateFrom);
  if (filter.dateTo) query = query.where('award_date', '<=', filter.dateTo);
  if (filter.minAmount !== undefined) query = query.where('amount', '>=', filter.minAmount);
  return inListOrder(query, 'award_date', 'id', page).execute();
}
