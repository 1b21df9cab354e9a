// The stored answers of GET /companies/{ticker} (migration 0097-stored-dossiers; docs/analytics.md,
// "Stored results"): their replacement by a rebuild, and the read a request makes of them.
import { type Kysely, sql } from 'kysely';
import { chunk, readInBatches, rowsPerInsert } from '../batch.js';
import type { CompanyDossiersTable, DossierOverseersTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import { markStoredResult, STORED_SCOPES } from './stored-analytics.js';

/** Distinct tickers of current trades (a superseded row or an N/A ticker has no dossier). */
function currentTradeTickers(db: Kysely<Database>) {
  return db
    .selectFrom('trades')
    .select('ticker')
    .distinct()
    .where('superseded_by', 'is', null)
    .where('ticker', '<>', 'N/A');
}

/** The tickers whose dossiers are stored: every ticker of a current trade. */
export async function tradedTickers(db: Kysely<Database>): Promise<string[]> {
  const rows = await currentTradeTickers(db).orderBy('ticker').execute();
  return rows.map((row) => row.ticker);
}

/** Which of these tickers are tickers of a current trade, in order. */
export async function tradedTickersAmong(
  db: Kysely<Database>,
  tickers: readonly string[],
): Promise<string[]> {
  const rows = await readInBatches(tickers, (batch) =>
    currentTradeTickers(db).where('ticker', 'in', batch).execute(),
  );
  return rows.map((row) => row.ticker).sort();
}

/** The tickers whose stored dossier a change has made stale since the last rebuild. */
export async function pendingDossierTickers(db: Kysely<Database>): Promise<{ id: number; ticker: string }[]> {
  return db.selectFrom('dossier_ticker_changes').select(['id', 'ticker']).execute();
}

/** Empties both tables (in the rebuild's transaction, before the new rows). */
export async function clearStoredDossiers(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('company_dossiers').execute();
  await db.deleteFrom('dossier_overseers').execute();
}

/** Deletes these tickers' stored dossiers (in the rebuild's transaction, before their new rows). */
export async function removeStoredDossiers(db: Kysely<Database>, tickers: readonly string[]): Promise<void> {
  for (const batch of chunk(tickers, 500))
    await db.deleteFrom('company_dossiers').where('ticker', 'in', batch).execute();
}

/** Which of these committee sets have their overseeing members stored. */
export async function storedOverseerKeys(
  db: Kysely<Database>,
  keys: readonly string[],
): Promise<Set<string>> {
  const rows = await readInBatches(keys, (batch) =>
    db.selectFrom('dossier_overseers').select('overseers_key').where('overseers_key', 'in', batch).execute(),
  );
  return new Set(rows.map((row) => row.overseers_key));
}

/** Deletes the overseeing members of the committee sets no stored dossier uses any more. */
export async function removeUnusedOverseers(db: Kysely<Database>): Promise<void> {
  await db
    .deleteFrom('dossier_overseers')
    .where('overseers_key', 'not in', db.selectFrom('company_dossiers').select('overseers_key'))
    .execute();
}

/** Inserts built dossiers and, when given, committee sets' members not stored yet. */
export async function storeDossiers(
  db: Kysely<Database>,
  dossiers: readonly CompanyDossiersTable[],
  overseers: readonly DossierOverseersTable[] = [],
): Promise<void> {
  for (const batch of chunk(dossiers, rowsPerInsert(3)))
    await db.insertInto('company_dossiers').values(batch).execute();
  for (const batch of chunk(overseers, rowsPerInsert(2)))
    await db.insertInto('dossier_overseers').values(batch).execute();
}

/**
 * Clears the changes the rebuild has seen (of the whole scope and of tickers) and records it, with
 * how many dossiers are stored (in the rebuild's transaction).
 */
export async function markStoredDossiers(
  db: Kysely<Database>,
  computedAt: string,
  seen: { changes: readonly number[]; tickerChanges: readonly number[] },
): Promise<number> {
  for (const batch of chunk(seen.tickerChanges, 500))
    await db.deleteFrom('dossier_ticker_changes').where('id', 'in', batch).execute();
  const stored = await db
    .selectFrom('company_dossiers')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const companies = Number(stored.n);
  await markStoredResult(db, [{ name: 'dossier', rowCount: companies }], computedAt, seen.changes);
  return companies;
}

/**
 * A ticker's stored answer as JSON text: its head, the overseeing members of its committee set and
 * the closing brace. Undefined when the ticker is not stored, or its stored dossier is not current
 * (never computed, a change of every dossier's inputs pending, or one of this ticker's). One
 * statement, so the check and the read see the same data.
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
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('dossier_ticker_changes as c').select('c.id').whereRef('c.ticker', '=', 'd.ticker'),
        ),
      ),
    )
    .executeTakeFirst();
  return row?.json;
}
