// Pages the OCR stage read, kept under their document's key until the document is read whole, so
// that a run stopped mid-document reads only the pages left (ingest/ocr/stage.ts, PageCheckpoint).
// The page's result is stored as JSON: storage does not look inside it.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** The pages kept under `documentKey`, by page number, as stored. */
export async function ocrPagesOf(db: Kysely<Database>, documentKey: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ocr_pages')
    .select('data')
    .where('document_key', '=', documentKey)
    .orderBy('page')
    .execute();
  return rows.map((row) => row.data);
}

/** Keeps (or replaces) one page. */
export async function saveOcrPage(
  db: Kysely<Database>,
  documentKey: string,
  page: number,
  data: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('ocr_pages')
    .values({ document_key: documentKey, page, data, created_at: now })
    .onConflict((oc) => oc.columns(['document_key', 'page']).doUpdateSet({ data, created_at: now }))
    .execute();
}

/** The document was read whole: its pages are not needed again. */
export async function dropOcrPages(db: Kysely<Database>, documentKey: string): Promise<void> {
  await db.deleteFrom('ocr_pages').where('document_key', '=', documentKey).execute();
}

/**
 * Each company the database knows as its listed symbol and name, for the OCR reader: the names'
 * words check the asset names read, and a ticker in brackets after its issuer's name is known.
 */
export async function issuerListings(db: Kysely<Database>): Promise<Array<[string, string]>> {
  const rows = await db
    .selectFrom('companies')
    .select(['ticker', 'name'])
    .where('name', 'is not', null)
    .execute();
  return rows.flatMap((row): Array<[string, string]> => (row.name ? [[row.ticker, row.name]] : []));
}

/** Whether the database holds any company by name (the names the OCR reader checks against). */
export async function holdsIssuerNames(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('companies')
    .select('ticker')
    .where('name', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The asset descriptions of the stored trades (one per ticker and spelling), for the OCR reader's
 * word list: names filers write that no issuer list holds (funds, foreign issuers).
 */
export async function tradeDescriptions(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('ticker_trade_descriptions')
    .select('asset_description')
    .distinct()
    .where('described', '=', 1)
    .where('asset_description', '!=', '')
    .execute();
  return rows.map((row) => row.asset_description);
}

/** What the database lists of a filing (from its source's index) that a scan read alone does not say. */
export interface ListedFiling {
  filer_name: string | null;
  filed_date: string | null;
  /** The member or official the filing is stored under. */
  politician_name: string | null;
  state: string | null;
  district: string | null;
}

/**
 * The filing the database lists under the source's document id, listed or read (a scan carries
 * neither its filer nor its date in text: ingest takes them from the index); undefined when none.
 */
export async function listedFiling(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
): Promise<ListedFiling | undefined> {
  return db
    .selectFrom('filings')
    .leftJoin('politicians', 'politicians.id', 'filings.politician_id')
    .select([
      'filings.filer_name',
      'filings.filed_date',
      'politicians.name as politician_name',
      'politicians.state',
      'politicians.district',
    ])
    .where('filings.source', '=', source)
    .where('filings.source_doc_id', '=', sourceDocId)
    .executeTakeFirst();
}
