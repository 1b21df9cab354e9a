// The company identity table: links from a source's identifier (CIK, CUSIP, name key, UEI) to a
// ticker. Callers normalize identifiers with market/company-links.ts before they reach here.
import type { Kysely } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import type { CompanyIdentifierKind, CompanyLinksTable } from '../schema/market.js';
import type { Database } from '../schema.js';

export type CompanyLinkWrite = Omit<CompanyLinksTable, 'id' | 'updated_at'>;
export type CompanyLinkRow = CompanyLinksTable & { id: number };

/** Insert or refresh links; one row per (kind, value, method), the latest statement of it wins. */
export async function saveCompanyLinks(
  db: Kysely<Database>,
  links: readonly CompanyLinkWrite[],
  now: string,
): Promise<number> {
  let written = 0;
  for (const batch of chunk(links, rowsPerInsert(8))) {
    const result = await db
      .insertInto('company_links')
      .values(batch.map((link) => ({ ...link, updated_at: now })))
      .onConflict((conflict) =>
        conflict.columns(['identifier_kind', 'identifier_value', 'method']).doUpdateSet((excluded) => ({
          ticker: excluded.ref('excluded.ticker'),
          display_name: excluded.ref('excluded.display_name'),
          confidence: excluded.ref('excluded.confidence'),
          source: excluded.ref('excluded.source'),
          updated_at: excluded.ref('excluded.updated_at'),
        })),
      )
      .executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}

/** The most confident link of an identifier that names a ticker, or undefined. */
export async function findCompanyLink(
  db: Kysely<Database>,
  kind: CompanyIdentifierKind,
  value: string,
): Promise<CompanyLinkRow | undefined> {
  return (await db
    .selectFrom('company_links')
    .selectAll()
    .where('identifier_kind', '=', kind)
    .where('identifier_value', '=', value)
    .where('ticker', 'is not', null)
    .orderBy('confidence', 'desc')
    .orderBy('id')
    .executeTakeFirst()) as CompanyLinkRow | undefined;
}

/** Every link of one kind, for resolving many identifiers in memory during an import. */
export async function listCompanyLinks(
  db: Kysely<Database>,
  kind: CompanyIdentifierKind,
): Promise<CompanyLinkRow[]> {
  return (await db
    .selectFrom('company_links')
    .selectAll()
    .where('identifier_kind', '=', kind)
    .orderBy('confidence', 'desc')
    .orderBy('id')
    .execute()) as CompanyLinkRow[];
}

/** Every identifier linked to a ticker (the dossier's "how we know this company"). */
export async function listLinksOfTicker(db: Kysely<Database>, ticker: string): Promise<CompanyLinkRow[]> {
  return (await db
    .selectFrom('company_links')
    .selectAll()
    .where('ticker', '=', ticker)
    .orderBy('identifier_kind')
    .orderBy('confidence', 'desc')
    .execute()) as CompanyLinkRow[];
}

/** Name keys that link to a ticker (which employers and clients are matched). */
export async function linkedNameKeys(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await db
    .selectFrom('company_links')
    .select('identifier_value')
    .where('identifier_kind', '=', 'name')
    .where('ticker', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.identifier_value));
}
