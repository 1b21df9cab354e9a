// The Filing resource: its schema (validation, serialization, OpenAPI, the disclosure.detected
// payload) and the mapping of a stored filing row onto it.
import { type Static, Type } from 'typebox';
import { chamberOfSource } from '../domain/sources.js';
import type { FilingRecord } from '../storage/repositories/filings.js';
import { Nullable } from './schema.js';

/** Parse statuses a filing can have. */
export const PARSE_STATUSES = [
  'parsed',
  // A scan read by OCR some of whose rows wait in the review queue (docs/ocr.md).
  'needs_review',
  'imported',
  'pending',
  'paper',
  'needs_ocr',
  'unsupported',
  'failed',
] as const;

export const FilingSchema = Type.Object({
  id: Type.Integer(),
  source: Type.String({ description: 'house_clerk, senate_efd or oge' }),
  chamber: Nullable(Type.String({ description: 'House, Senate or Executive' })),
  source_doc_id: Type.String({
    description: "The source's own document id (House DocID, eFD report id, OGE file)",
  }),
  kind: Type.String({ description: 'PTR, annual, ...' }),
  politician_id: Nullable(Type.Integer()),
  politician_name: Nullable(Type.String()),
  politician_slug: Nullable(Type.String()),
  filer_name: Nullable(Type.String({ description: 'Filer as named on the document or index' })),
  filed_date: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  url: Nullable(Type.String({ description: 'The original document' })),
  is_paper: Type.Boolean({ description: 'Filed on paper (scanned)' }),
  parse_status: Type.String({ description: `One of ${PARSE_STATUSES.join(', ')}` }),
  parse_reason: Nullable(Type.String({ description: 'Why the status is what it is, in a sentence' })),
  trade_count: Type.Integer({
    description: 'Trades on record from this filing (amended-away ones excluded)',
  }),
  is_amendment: Type.Boolean({
    description: 'The document says it amends an earlier report (eFD "(Amendment N)", House amended rows)',
  }),
  amendment_number: Nullable(Type.Integer({ description: 'eFD amendment number' })),
  amends_filing_id: Nullable(
    Type.Integer({ description: 'The filing this one amends (null while the original is not on record)' }),
  ),
  amended_by_filing_id: Nullable(Type.Integer({ description: 'A later filing that amends this one' })),
  raw_sha256: Nullable(Type.String({ description: 'SHA-256 of the archived original document' })),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export type Filing = Static<typeof FilingSchema>;

export const FILING_EXAMPLE: Filing = {
  id: 311,
  source: 'house_clerk',
  chamber: 'House',
  source_doc_id: '20026590',
  kind: 'PTR',
  politician_id: 387,
  politician_name: 'Nancy Pelosi',
  politician_slug: 'nancy-pelosi',
  filer_name: 'Hon. Nancy Pelosi',
  filed_date: '2025-01-17',
  url: 'https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/2025/20026590.pdf',
  is_paper: false,
  parse_status: 'parsed',
  parse_reason: null,
  trade_count: 9,
  is_amendment: false,
  amendment_number: null,
  amends_filing_id: null,
  amended_by_filing_id: null,
  raw_sha256: '3f1c8e1b7f0f5c0e5d5b9b1f2c7a4a8e6d0c1b2a3f4e5d6c7b8a9f0e1d2c3b4a',
  created_at: '2025-01-17T15:02:11.000Z',
  updated_at: '2025-01-17T15:02:11.000Z',
};

export function toFilingResource(record: FilingRecord): Filing {
  return {
    id: record.id,
    source: record.source,
    chamber: chamberOfSource(record.source),
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
