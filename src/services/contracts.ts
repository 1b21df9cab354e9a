// Contract awards for the API: query parameters to repository filters, rows to resources.
import type { Kysely } from 'kysely';
import { ApiError } from '../errors.js';
import { type ContractResource, toContractResource } from '../resources/contract.js';
import { findContractAward, listContractAwards } from '../storage/repositories/contracts.js';
import type { Database } from '../storage/schema.js';
import { commaList, requestedPage } from './list-query.js';

export interface ContractQuery {
  ticker?: string;
  recipient?: string;
  agency?: string;
  date_from?: string;
  date_to?: string;
  min_amount?: number;
  limit?: number;
  offset?: number;
  sort_dir?: 'asc' | 'desc';
}

export async function listContracts(db: Kysely<Database>, query: ContractQuery): Promise<ContractResource[]> {
  if (query.date_from && query.date_to && query.date_from > query.date_to) {
    throw new ApiError('unprocessable', `date_from (${query.date_from}) is after date_to (${query.date_to})`);
  }
  const rows = await listContractAwards(
    db,
    {
      tickers: commaList(query.ticker, (ticker) => ticker.toUpperCase()),
      recipient: query.recipient?.trim() || undefined,
      agency: query.agency?.trim() || undefined,
      dateFrom: query.date_from,
      dateTo: query.date_to,
      minAmount: query.min_amount,
    },
    requestedPage(query),
  );
  return rows.map(toContractResource);
}

export async function getContract(db: Kysely<Database>, id: number): Promise<ContractResource> {
  const row = await findContractAward(db, id);
  if (!row) throw new ApiError('not_found', `no contract award ${id}`);
  return toContractResource(row);
}
