// GET /companies/{ticker}: the ticker checked, then its dossier (analytics/company-dossier.ts),
// read as stored text while `enrich`'s stored dossiers are current, else built now.
import type { Kysely } from 'kysely';
import { buildCompanyDossier } from '../analytics/company-dossier.js';
import { parseTickerList } from '../domain/ticker.js';
import { invalidField, notFound, quoted } from '../errors.js';
import { tickerIsKnown } from '../storage/repositories/analytics-links.js';
import { storedDossierJson } from '../storage/repositories/stored-dossiers.js';
import type { Database } from '../storage/schema.js';

export { DOSSIER_LIST_LIMIT } from '../analytics/company-dossier.js';

function normalizeTicker(raw: string): string {
  const { tickers, invalid } = parseTickerList(raw);
  const ticker = tickers[0];
  if (invalid !== null || tickers.length !== 1 || ticker === undefined)
    throw invalidField('ticker', `${quoted(raw)} is not a ticker symbol`);
  return ticker;
}

/** The dossier built now (a ticker the data does not know: 404). */
export async function companyDossier(db: Kysely<Database>, rawTicker: string) {
  const ticker = normalizeTicker(rawTicker);
  if (!(await tickerIsKnown(db, ticker)))
    throw notFound(`No company with ticker ${quoted(ticker)} in the data`);
  return buildCompanyDossier(db, ticker);
}

/**
 * The dossier as the JSON text `enrich` stored, when it is current (no change of its inputs since)
 * and the ticker is among those stored; undefined otherwise (then build it: companyDossier).
 */
export async function storedCompanyDossier(
  db: Kysely<Database>,
  rawTicker: string,
): Promise<string | undefined> {
  return storedDossierJson(db, normalizeTicker(rawTicker));
}
