// The company directory (listings per file, merged companies) and ticker resolutions of trades.
import type { Kysely } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import { updateRowsByKey } from '../bulk-update.js';
import type { CompaniesTable, CompanyListingsTable, TickerResolutionsTable } from '../schema/market.js';
import type { Database } from '../schema.js';

/** A directory row as the importer writes it (the import time is added here). */
export type ListingRow = Omit<CompanyListingsTable, 'imported_at'>;

/** Replaces one file's listings; returns how many tickers it adds and drops against the last import. */
export async function replaceListings(
  db: Kysely<Database>,
  origin: string,
  rows: readonly ListingRow[],
  now: string,
): Promise<{ added: number; removed: number }> {
  const before = await db
    .selectFrom('company_listings')
    .select('ticker')
    .where('origin', '=', origin)
    .execute();
  const known = new Set(before.map((row) => row.ticker));
  const after = new Set(rows.map((row) => row.ticker));
  await db.deleteFrom('company_listings').where('origin', '=', origin).execute();
  for (const batch of chunk(rows, rowsPerInsert(15))) {
    await db
      .insertInto('company_listings')
      .values(batch.map((row) => ({ ...row, imported_at: now })))
      .execute();
  }
  return {
    added: [...after].filter((ticker) => !known.has(ticker)).length,
    removed: [...known].filter((ticker) => !after.has(ticker)).length,
  };
}

/** Whether the company directory holds any company. */
export async function hasCompanies(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('companies').select('ticker').limit(1).executeTakeFirst()) !== undefined;
}

export async function allListings(
  db: Kysely<Database>,
): Promise<Array<ListingRow & { imported_at: string }>> {
  return db.selectFrom('company_listings').selectAll().orderBy('ticker').orderBy('origin').execute();
}

/** A merged company as `market/company-directory.ts` builds it (the update time is added here). */
export type CompanyWrite = Omit<CompaniesTable, 'updated_at' | 'sources' | 'is_etf'> & {
  sources: string;
  is_etf: number;
};

/** Upserts merged companies; returns how many rows were new. */
export async function upsertCompanies(
  db: Kysely<Database>,
  companies: readonly CompanyWrite[],
  now: string,
): Promise<{ inserted: number; updated: number }> {
  const existing = new Set(
    (await db.selectFrom('companies').select('ticker').execute()).map((row) => row.ticker),
  );
  const fresh = companies.filter((company) => !existing.has(company.ticker));
  const known = companies.filter((company) => existing.has(company.ticker));
  for (const batch of chunk(fresh, rowsPerInsert(16))) {
    await db
      .insertInto('companies')
      .values(batch.map((company) => ({ ...company, updated_at: now })))
      .execute();
  }
  await updateRowsByKey(
    db,
    'companies',
    { column: 'ticker', type: 'text' },
    {
      name: 'text',
      cik: 'text',
      exchange: 'text',
      share_class: 'text',
      sector: 'text',
      industry: 'text',
      gics_sector: 'text',
      gics_sub_industry: 'text',
      nasdaq_sector: 'text',
      nasdaq_industry: 'text',
      sector_source: 'text',
      industry_source: 'text',
      sources: 'text',
      is_etf: 'integer',
      updated_at: 'text',
    },
    known.map((company) => ({ ...company, updated_at: now })),
  );
  return { inserted: fresh.length, updated: known.length };
}

export async function sectorsBySymbol(
  db: Kysely<Database>,
): Promise<Map<string, { sector: string | null; industry: string | null; name: string | null }>> {
  const rows = await db.selectFrom('companies').select(['ticker', 'sector', 'industry', 'name']).execute();
  return new Map(
    rows.map((row) => [row.ticker, { sector: row.sector, industry: row.industry, name: row.name }]),
  );
}

export interface ResolutionCandidate {
  id: number;
  ticker: string;
  filed_ticker: string | null;
  asset_description: string | null;
  asset_type: string | null;
  resolved: number;
}

/**
 * Trades whose filed ticker is N/A or a class-share spelling to respell; with `onlyNew`, those
 * without a recorded resolution.
 */
export async function resolutionCandidates(
  db: Kysely<Database>,
  options: { onlyNew: boolean },
): Promise<ResolutionCandidate[]> {
  let query = db
    .selectFrom('trades as t')
    .leftJoin('ticker_resolutions as r', 'r.trade_id', 't.id')
    .select((eb) => [
      't.id',
      't.ticker',
      't.filed_ticker',
      't.asset_description',
      't.asset_type',
      eb.case().when('r.trade_id', 'is', null).then(0).else(1).end().as('resolved'),
    ])
    .where((eb) =>
      eb.or([
        eb('t.ticker', '=', 'N/A'),
        eb('t.filed_ticker', 'is not', null),
        eb('t.ticker', 'like', '%-_'),
        eb('t.ticker', 'like', '%/_'),
      ]),
    );
  if (options.onlyNew) query = query.where('r.trade_id', 'is', null);
  return query.orderBy('t.id').execute();
}

export type ResolutionWrite = Omit<TickerResolutionsTable, 'resolved_at'>;

/** Records resolutions (replacing earlier ones of the same trades). */
export async function saveResolutions(
  db: Kysely<Database>,
  resolutions: readonly ResolutionWrite[],
  now: string,
): Promise<void> {
  for (const batch of chunk(resolutions, 500)) {
    const ids = batch.map((resolution) => resolution.trade_id);
    await db.deleteFrom('ticker_resolutions').where('trade_id', 'in', ids).execute();
    await db
      .insertInto('ticker_resolutions')
      .values(batch.map((resolution) => ({ ...resolution, resolved_at: now })))
      .execute();
  }
}

/** Sets trades' served ticker; `filed_ticker` keeps the filer's text whenever the two differ. */
export async function setTradeTickers(
  db: Kysely<Database>,
  changes: ReadonlyArray<{ id: number; ticker: string; filed_ticker: string | null }>,
  now: string,
): Promise<void> {
  await updateRowsByKey(
    db,
    'trades',
    { column: 'id', type: 'integer' },
    { ticker: 'text', filed_ticker: 'text', updated_at: 'text' },
    changes.map((change) => ({ ...change, updated_at: now })),
  );
}

export async function resolutionSummary(
  db: Kysely<Database>,
): Promise<Array<{ status: string; method: string | null; n: number }>> {
  const rows = await db
    .selectFrom('ticker_resolutions')
    .select((eb) => ['status', 'method', eb.fn.countAll<number>().as('n')])
    .groupBy(['status', 'method'])
    .orderBy('status')
    .orderBy('method')
    .execute();
  return rows.map((row) => ({ status: row.status, method: row.method, n: Number(row.n) }));
}
