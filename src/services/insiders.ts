// Insider trades as the API serves them: filters and paging over resources/insider.ts's loader,
// which the insider.filed event uses too, so its data equals the REST resource.
import type { Kysely } from 'kysely';
import { invalidField, notFound, quoted } from '../errors.js';
import {
  INSIDER_JSON_TERMS,
  type InsiderTrade,
  insiderTradesByIds,
  loadInsiderTrades,
} from '../resources/insider.js';
import type { ListOrder } from '../storage/list-order.js';
import { findInsiderTradesJson } from '../storage/repositories/insider-trades-json.js';
import type { InsiderSortColumn, InsiderTradeFilter } from '../storage/repositories/sec.js';
import type { Database } from '../storage/schema.js';
import { commaList, refuseReversedDates, requestedSortedPage } from './list-query.js';

export async function getInsiderTrade(db: Kysely<Database>, id: number): Promise<InsiderTrade | undefined> {
  return (await insiderTradesByIds(db, [id]))[0];
}

export interface InsiderListParams {
  ticker?: string;
  cik?: string;
  insider_name?: string;
  code?: string;
  date_from?: string;
  date_to?: string;
  min_value?: number;
  has_politician_overlap?: boolean;
  limit: number;
  offset: number;
  sort_by?: InsiderSortColumn;
  sort_dir?: 'asc' | 'desc';
}

/** GET /insiders/trades and GET /tickers/{ticker}/insiders. */
export async function listInsiderTrades(
  db: Kysely<Database>,
  params: InsiderListParams,
): Promise<InsiderTrade[]> {
  const { filter, order } = insiderQuery(params);
  return loadInsiderTrades(db, filter, order);
}

/** listInsiderTrades as the text of the JSON array the database writes (the same lines and fields). */
export async function listInsiderTradesJson(
  db: Kysely<Database>,
  params: InsiderListParams,
): Promise<{ json: string | Buffer; rows: number }> {
  const { filter, order } = insiderQuery(params);
  return findInsiderTradesJson(db, filter, order, INSIDER_JSON_TERMS);
}

/** The repository's filter and order for the query; a malformed code or CIK is refused. */
function insiderQuery(params: InsiderListParams): {
  filter: InsiderTradeFilter;
  order: ListOrder<InsiderSortColumn>;
} {
  refuseReversedDates(params);
  const codes = commaList(params.code, (code) => code.toUpperCase());
  for (const code of codes) {
    if (!/^[A-Z]$/.test(code))
      throw invalidField(
        'code',
        `${quoted(code)} is not a Form 4 transaction code (one letter: P, S, A, M, ...)`,
      );
  }
  if (params.cik !== undefined && !/^\d{1,10}$/.test(params.cik.trim())) {
    throw invalidField('cik', 'must be up to 10 digits');
  }
  return {
    filter: {
      ticker: params.ticker?.trim() || undefined,
      cik: params.cik?.trim(),
      insiderName: params.insider_name?.trim() || undefined,
      codes,
      dateFrom: params.date_from,
      dateTo: params.date_to,
      minValue: params.min_value,
      hasPoliticianOverlap: params.has_politician_overlap,
    },
    order: requestedSortedPage(params, 'transaction_date'),
  };
}

export async function requireInsiderTrade(db: Kysely<Database>, id: number): Promise<InsiderTrade> {
  const trade = await getInsiderTrade(db, id);
  if (!trade) throw notFound(`no insider transaction ${id}`);
  return trade;
}
