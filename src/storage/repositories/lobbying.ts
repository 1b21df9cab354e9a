// Lobbying filings: idempotent upsert on the LDA filing UUID, and the filtered list and lookup the
// API serves. A re-ingest of an unchanged filing writes nothing (content_hash is equal).
import type { Kysely } from 'kysely';
import { containsInsensitive } from '../dialect.js';
import { inListOrder, type ListPage } from '../list-order.js';
import type { LobbyingFilingsTable } from '../schema/records.js';
import type { Database } from '../schema.js';

export type LobbyingWrite = Omit<LobbyingFilingsTable, 'id' | 'created_at' | 'updated_at'> & {
  issueCodes: readonly string[];
};
export type LobbyingRow = Omit<LobbyingFilingsTable, 'id'> & { id: number };
export type UpsertOutcome = 'new' | 'updated' | 'unchanged';

export async function upsertLobbyingFiling(
  db: Kysely<Database>,
  write: LobbyingWrite,
  now: string,
): Promise<{ id: number; outcome: UpsertOutcome }> {
  const { issueCodes, ...columns } = write;
  const existing = await db
    .selectFrom('lobbying_filings')
    .select(['id', 'content_hash'])
    .where('filing_uuid', '=', write.filing_uuid)
    .executeTakeFirst();
  if (existing?.content_hash === write.content_hash) return { id: existing.id, outcome: 'unchanged' };
  let id: number;
  if (existing) {
    await db
      .updateTable('lobbying_filings')
      .set({ ...columns, updated_at: now })
      .where('id', '=', existing.id)
      .execute();
    await db.deleteFrom('lobbying_issues').where('filing_id', '=', existing.id).execute();
    id = existing.id;
  } else {
    const inserted = await db
      .insertInto('lobbying_filings')
      .values({ ...columns, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = inserted.id;
  }
  const codes = [...new Set(issueCodes)];
  if (codes.length > 0) {
    await db
      .insertInto('lobbying_issues')
      .values(codes.map((code) => ({ filing_id: id, code })))
      .execute();
  }
  return { id, outcome: existing ? 'updated' : 'new' };
}

export async function findLobbyingFiling(db: Kysely<Database>, id: number): Promise<LobbyingRow | undefined> {
  return db.selectFrom('lobbying_filings').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findLobbyingFilingByUuid(
  db: Kysely<Database>,
  filingUuid: string,
): Promise<LobbyingRow | undefined> {
  return db
    .selectFrom('lobbying_filings')
    .selectAll()
    .where('filing_uuid', '=', filingUuid.toLowerCase())
    .executeTakeFirst();
}

export interface LobbyingFilter {
  client?: string;
  registrant?: string;
  tickers?: readonly string[];
  issueCodes?: readonly string[];
  year?: number;
  period?: string;
  minAmount?: number;
}

/** By date posted (then id), filters combined with AND; a list filter is an OR of its values. */
export async function listLobbyingFilings(
  db: Kysely<Database>,
  filter: LobbyingFilter,
  page: ListPage,
): Promise<LobbyingRow[]> {
  let query = db.selectFrom('lobbying_filings').selectAll();
  if (filter.client) query = query.where(containsInsensitive('client_name', filter.client));
  if (filter.registrant) query = query.where(containsInsensitive('registrant_name', filter.registrant));
  if (filter.tickers?.length) query = query.where('ticker', 'in', [...filter.tickers]);
  if (filter.issueCodes?.length) {
    const codes = [...filter.issueCodes];
    query = query.where('id', 'in', (sub) =>
      sub.selectFrom('lobbying_issues').select('filing_id').where('code', 'in', codes),
    );
  }
  if (filter.year !== undefined) query = query.where('filing_year', '=', filter.year);
  if (filter.period) query = query.where('filing_period', '=', filter.period);
  if (filter.minAmount !== undefined) query = query.where('amount', '>=', filter.minAmount);
  return inListOrder(query, 'filed_date', 'id', page).execute();
}
