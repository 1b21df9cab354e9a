// Lobbying filings for the API: query parameters to repository filters, rows to resources.
import type { Kysely } from 'kysely';
import { FILING_PERIODS, LDA_ISSUE_CODES } from '../domain/lda.js';
import { ApiError } from '../errors.js';
import { LOBBYING_DOCUMENT_URL, type LobbyingResource, toLobbyingResource } from '../resources/lobbying.js';
import {
  findLobbyingFiling,
  type LobbyingFilter,
  listLobbyingFilings,
  listLobbyingFilingsJson,
} from '../storage/repositories/lobbying.js';
import type { Database } from '../storage/schema.js';
import { commaList, requestedPage } from './list-query.js';

export interface LobbyingQuery {
  client?: string;
  registrant?: string;
  ticker?: string;
  issue_code?: string;
  year?: number;
  period?: string;
  min_amount?: number;
  limit?: number;
  offset?: number;
  sort_dir?: 'asc' | 'desc';
}

export async function listLobbying(db: Kysely<Database>, query: LobbyingQuery): Promise<LobbyingResource[]> {
  const rows = await listLobbyingFilings(db, lobbyingFilter(query), requestedPage(query));
  return rows.map(toLobbyingResource);
}

/** listLobbying as the text of the JSON array the database writes (the same filings and fields). */
export async function listLobbyingJson(
  db: Kysely<Database>,
  query: LobbyingQuery,
): Promise<{ json: string | Buffer; rows: number }> {
  return listLobbyingFilingsJson(db, lobbyingFilter(query), requestedPage(query), LOBBYING_DOCUMENT_URL);
}

/** The repository's filter for the query; an unknown issue code or period is refused. */
function lobbyingFilter(query: LobbyingQuery): LobbyingFilter {
  const issueCodes = commaList(query.issue_code, (code) => code.toUpperCase());
  const unknown = issueCodes.filter((code) => !(code in LDA_ISSUE_CODES));
  if (unknown.length > 0) {
    throw new ApiError(
      'unprocessable',
      `issue_code: unknown LDA issue code ${unknown.join(', ')} (e.g. TAX, DEF, HCR)`,
    );
  }
  if (query.period !== undefined && !(FILING_PERIODS as readonly string[]).includes(query.period)) {
    throw new ApiError('unprocessable', `period must be one of ${FILING_PERIODS.join(', ')}`);
  }
  return {
    client: query.client?.trim() || undefined,
    registrant: query.registrant?.trim() || undefined,
    tickers: commaList(query.ticker, (ticker) => ticker.toUpperCase()),
    issueCodes,
    year: query.year,
    period: query.period,
    minAmount: query.min_amount,
  };
}

export async function getLobbying(db: Kysely<Database>, id: number): Promise<LobbyingResource> {
  const row = await findLobbyingFiling(db, id);
  if (!row) throw new ApiError('not_found', `no lobbying filing ${id}`);
  return toLobbyingResource(row);
}
