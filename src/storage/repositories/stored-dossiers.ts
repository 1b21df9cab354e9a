// The stored answers of GET /companies/{ticker} (migration 0097-stored-dossiers; docs/analytics.md,
// "Stored results"): their replacement by a rebuild, and the read a request makes of them.
import { type Kysely, sql } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import type { CompanyDossiersTable, DossierOverseersTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import { markStoredResult, STORED_SCOPES } from './stored-analytics.js';

/** The tickers whose dossiers are stored: every ticker of a current trade. */
export async function tradedTickers(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('trades')
    .select('ticker')
    .distinct()
    .where('superseded_by', 'is', null)
    .where('ticker', '<>', 'N/A')
    .orderBy('ticker')
    .execute();
  return rows.map((row) => row.ticker);
}

/** Empties both tables (in the rebuild's transaction, before the new rows). */
export async function clearStoredDossiers(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('company_dossiers').execute();
  await db.deleteFrom('dossier_overseers').execute();
}

export async function storeDossiers(
  db: Kysely<Database>,
  rows: readonly CompanyDossiersTable[],
): Promise<void> {
  for (const batch of chunk(rows, rowsPerInsert(3)))
    if (batch.length > 0) await db.insertInto('company_dossiers').values(batch).execute();
}

export async function storeDossierOverseers(
  db: Kysely<Database>,
  rows: readonly DossierOverseersTable[],
): Promise<void> {
  for (const batch of chunk(rows, rowsPerInsert(2)))
    if (batch.length > 0) await db.insertInto('dossier_overseers').values(batch).execute();
}

/** Clears the changes the rebuild has seen and records it (in the rebuild's transaction). */
export function markStoredDossiers(
  db: Kysely<Database>,
  companies: number,
  computedAt: string,
  seenChanges: readonly number[],
): Promise<void> {
  return markStoredResult(db, [{ name: 'dossier', rowCount: companies }], computedAt, seenChanges);
}

/**
 * A ticker's stored answer as JSON text: its head, the overseeing members of its committee set and
 * the closing brace. Undefined when the ticker is not stored, or the stored dossiers are not
 * current (never computed, or a change of their inputs pending). One statement, so the check and
 * the read see the same data.
 */
export async function storedDossierJson(db: Kysely<Database>, ticker: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('company_dossiers as d')
    .innerJoin('dossier_overseers as o', 'o.overseers_key', 'd.overseers_key')
    .select(
      sql<string>`${sql.ref('d.head')} || ${',"overseeing_members":'} || ${sql.ref('o.members')} || ${'}'}`.as(
        'json',
      ),
    )
    .where('d.ticker', '=', ticker)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('analytics_stored').select('name').where('name', '=', 'dossier')),
    )
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('analytics_changes')
            .select('id')
            .where('scope', 'in', [...STORED_SCOPES.dossier]),
        ),
      ),
    )
    .executeTakeFirst();
  return row?.json;
}
