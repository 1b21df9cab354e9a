// Filings as the API serves them: every disclosure document with what became of it.
import type { Kysely } from 'kysely';
import { invalidField, notFound } from '../errors.js';
import {
  type FilingRecord,
  filingTradeCounts,
  findFiling,
  findFilings,
} from '../storage/repositories/filings.js';
import { findPoliticianId } from '../storage/repositories/politicians-read.js';
import type { Database } from '../storage/schema.js';
import { CHAMBER_OF_SOURCE, CHAMBER_SOURCES, splitList } from './trade-params.js';

/** Parse statuses a filing can have. */
export const PARSE_STATUSES = [
  'parsed',
  'imported',
  'pending',
  'paper',
  'needs_ocr',
  'unsupported',
  'failed',
] as const;

export function toFilingResource(record: FilingRecord) {
  return {
    id: record.id,
    source: record.source,
    chamber: CHAMBER_OF_SOURCE[record.source] ?? null,
    source_doc_id: record.source_doc_id,
    kind: record.kind,
    politician_id: record.politician_id,
    politician_name: record.politician_name ?? null,
    politician_slug: record.politician_slug ?? null,
    filer_name: record.filer_name,
    filed_date: record.filed_date,
    url: record.url,
    is_paper: record.is_paper === 1,
    parse_status: record.parse_status,
    parse_reason: record.parse_reason,
    trade_count: record.trade_count,
    is_amendment: record.is_amendment === 1,
    amendment_number: record.amendment_number,
    amends_filing_id: record.amends_filing_id,
    amended_by_filing_id: record.amended_by_filing_id ?? null,
    raw_sha256: record.raw_sha256,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export type FilingResource = ReturnType<typeof toFilingResource>;

export interface FilingListParams {
  source?: string;
  politician_id?: string;
  status?: string;
  date_from?: string;
  date_to?: string;
  limit: number;
  offset: number;
}

const SOURCES = new Set(Object.values(CHAMBER_SOURCES));

export async function listFilings(db: Kysely<Database>, params: FilingListParams): Promise<FilingResource[]> {
  const sources = params.source
    ? splitList('source', params.source).map((value) => {
        const source = CHAMBER_SOURCES[value.toLowerCase()] ?? value.toLowerCase();
        if (!SOURCES.has(source))
          throw invalidField(
            'source',
            `"${value}" is not one of house_clerk, senate_efd, oge (or house, senate, executive)`,
          );
        return source;
      })
    : undefined;
  const statuses = params.status
    ? splitList('status', params.status).map((status) => {
        if (!(PARSE_STATUSES as readonly string[]).includes(status)) {
          throw invalidField('status', `"${status}" is not one of ${PARSE_STATUSES.join(', ')}`);
        }
        return status;
      })
    : undefined;
  let politicianIds: number[] | undefined;
  if (params.politician_id) {
    politicianIds = [];
    for (const member of splitList('politician_id', params.politician_id)) {
      const id = await findPoliticianId(db, member);
      if (id === undefined) throw notFound(`No politician with id or slug "${member}"`);
      politicianIds.push(id);
    }
  }
  if (params.date_from && params.date_to && params.date_from > params.date_to) {
    throw invalidField('date_from', `must not be after date_to (${params.date_from} > ${params.date_to})`);
  }
  const rows = await findFilings(
    db,
    { sources, statuses, politicianIds, filedFrom: params.date_from, filedTo: params.date_to },
    { limit: params.limit, offset: params.offset },
  );
  return rows.map(toFilingResource);
}

export async function getFiling(db: Kysely<Database>, id: number) {
  const record = await findFiling(db, id);
  if (!record) throw notFound(`No filing with id ${id}`);
  const counts = await filingTradeCounts(db, id);
  return { ...toFilingResource(record), superseded_trade_count: counts.superseded };
}
