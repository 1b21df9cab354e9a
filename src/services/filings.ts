// Filings as the API serves them: every disclosure document with what became of it.

import type { Kysely } from 'kysely';
import { ownEntry } from '../domain/lookup.js';
import { SOURCE_OF_CHAMBER_FILTER, TRADE_SOURCES } from '../domain/sources.js';
import { invalidField, notFound, quoted } from '../errors.js';
import { type Filing, PARSE_STATUSES, toFilingResource } from '../resources/filing.js';
import { toFilingReview } from '../resources/review.js';
import {
  type FilingFilter,
  filingTradeCounts,
  findFiling,
  findFilings,
  findFilingsJson,
} from '../storage/repositories/filings.js';
import { findPoliticianId } from '../storage/repositories/politicians-read.js';
import { reviewDecisionsOfFiling, reviewItemsOfFiling } from '../storage/repositories/review.js';
import type { Database } from '../storage/schema.js';
import { splitList } from './trade-params.js';

export interface FilingListParams {
  source?: string;
  politician_id?: string;
  status?: string;
  date_from?: string;
  date_to?: string;
  limit: number;
  offset: number;
}

const SOURCES = new Set<string>(TRADE_SOURCES);

export async function listFilings(db: Kysely<Database>, params: FilingListParams): Promise<Filing[]> {
  const { filter, page } = await filingsQuery(db, params);
  return (await findFilings(db, filter, page)).map(toFilingResource);
}

/** listFilings as the text of the JSON array the database writes (the same filings and fields). */
export async function listFilingsJson(
  db: Kysely<Database>,
  params: FilingListParams,
): Promise<{ json: string | Buffer; rows: number }> {
  const { filter, page } = await filingsQuery(db, params);
  return findFilingsJson(db, filter, page);
}

/** The repository's filter and page for the query; an unknown source, status or member is refused. */
async function filingsQuery(
  db: Kysely<Database>,
  params: FilingListParams,
): Promise<{ filter: FilingFilter; page: { limit: number; offset: number } }> {
  const sources = params.source
    ? splitList('source', params.source).map((value) => {
        const source = ownEntry(SOURCE_OF_CHAMBER_FILTER, value.toLowerCase()) ?? value.toLowerCase();
        if (!SOURCES.has(source))
          throw invalidField(
            'source',
            `${quoted(value)} is not one of house_clerk, senate_efd, oge (or house, senate, executive)`,
          );
        return source;
      })
    : undefined;
  const statuses = params.status
    ? splitList('status', params.status).map((status) => {
        if (!(PARSE_STATUSES as readonly string[]).includes(status)) {
          throw invalidField('status', `${quoted(status)} is not one of ${PARSE_STATUSES.join(', ')}`);
        }
        return status;
      })
    : undefined;
  let politicianIds: number[] | undefined;
  if (params.politician_id) {
    politicianIds = [];
    for (const member of splitList('politician_id', params.politician_id)) {
      const id = await findPoliticianId(db, member);
      if (id === undefined) throw notFound(`No politician with id or slug ${quoted(member)}`);
      politicianIds.push(id);
    }
  }
  if (params.date_from && params.date_to && params.date_from > params.date_to) {
    throw invalidField('date_from', `must not be after date_to (${params.date_from} > ${params.date_to})`);
  }
  return {
    filter: { sources, statuses, politicianIds, filedFrom: params.date_from, filedTo: params.date_to },
    page: { limit: params.limit, offset: params.offset },
  };
}

export async function getFiling(db: Kysely<Database>, id: number) {
  const record = await findFiling(db, id);
  if (!record) throw notFound(`No filing with id ${id}`);
  const counts = await filingTradeCounts(db, id);
  return {
    ...toFilingResource(record),
    superseded_trade_count: counts.superseded,
    review: await filingReview(db, id),
  };
}

/** The scan's review queue: rows still waiting, and every decision taken (who, when, old -> new). */
async function filingReview(db: Kysely<Database>, id: number) {
  const items = await reviewItemsOfFiling(db, id);
  const decisions = await reviewDecisionsOfFiling(db, id);
  return toFilingReview(
    items.filter((item) => item.status === 'pending').length,
    decisions,
    new Map(items.map((item) => [item.id, item.row])),
  );
}
