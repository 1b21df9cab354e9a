// Senate eFD report search results (POST /search/report/data/). The response envelope is
// `{draw, recordsTotal, recordsFiltered, result, data}`; each `data` row is
// [first name, last name, office, '<a href="/search/view/<kind>/<uuid>/">Title</a>', "MM/DD/YYYY"].
// Scrapers also saved the bare `data` array, and one (jeremiak) re-shaped rows into objects
// {firstName, lastName, fullName, reportTitle, reportLink, reportDate} with first and last swapped.
import { decodeEntities, stripTags } from '../../../domain/asset.js';
import { parseDate } from '../../../domain/dates.js';
import { nameCase } from '../name-case.js';

export type SenateReportKind = 'ptr' | 'paper' | 'annual' | 'extension-notice' | 'other';

export interface SenateSearchRow {
  first_name: string;
  last_name: string;
  /** "First Last" in the case the filer uses (all-caps names are title-cased). */
  filer_name: string;
  /** "Senator", "Former Senator", "Candidate" ... */
  office: string | null;
  /** The kind segment of the report link: ptr (electronic PTR page), paper (scanned images), ... */
  report_kind: SenateReportKind;
  /** The report UUID, lower-cased (eFD prints paper UUIDs in upper case at times). */
  report_id: string | null;
  /** Link path as given, e.g. "/search/view/ptr/<uuid>/". */
  report_path: string | null;
  report_title: string;
  /** True for "Periodic Transaction Report ..." titles, electronic or paper. */
  is_ptr: boolean;
  is_paper: boolean;
  is_amendment: boolean;
  /** YYYY-MM-DD: the date the search lists (the filing date). */
  filed_date: string | null;
}

export interface SenateSearchPage {
  /** From the envelope; null when only the `data` array was given. */
  records_total: number | null;
  records_filtered: number | null;
  rows: SenateSearchRow[];
}

export class SenateSearchFormatError extends Error {}

/** Accepts the parsed JSON (envelope, bare `data` array, or the object-row variant). */
export function parseSenateSearchResults(json: unknown): SenateSearchPage {
  if (Array.isArray(json)) return { records_total: null, records_filtered: null, rows: readRows(json) };
  if (typeof json === 'object' && json !== null && Array.isArray((json as { data?: unknown }).data)) {
    const envelope = json as { data: unknown[]; recordsTotal?: unknown; recordsFiltered?: unknown };
    return {
      records_total: numberOrNull(envelope.recordsTotal),
      records_filtered: numberOrNull(envelope.recordsFiltered),
      rows: readRows(envelope.data),
    };
  }
  throw new SenateSearchFormatError('not eFD search results: expected a `data` array or an array of rows');
}

/** Does this JSON look like eFD search results (for format detection)? */
export function isSenateSearchJson(json: unknown): boolean {
  const rows = Array.isArray(json)
    ? json
    : typeof json === 'object' && json !== null
      ? (json as { data?: unknown }).data
      : undefined;
  if (!Array.isArray(rows) || rows.length === 0) return false;
  const first: unknown = rows[0];
  if (Array.isArray(first))
    return first.some((cell) => typeof cell === 'string' && /\/search\/view\//.test(cell));
  return typeof first === 'object' && first !== null && 'reportLink' in first;
}

function readRows(rows: readonly unknown[]): SenateSearchRow[] {
  const result: SenateSearchRow[] = [];
  rows.forEach((row, index) => {
    if (Array.isArray(row)) result.push(fromArray(row, index));
    else if (typeof row === 'object' && row !== null)
      result.push(fromObject(row as Record<string, unknown>, index));
    else throw new SenateSearchFormatError(`row ${index + 1} is neither an array nor an object`);
  });
  return result;
}

function fromArray(cells: readonly unknown[], index: number): SenateSearchRow {
  if (cells.length < 5)
    throw new SenateSearchFormatError(`row ${index + 1} has ${cells.length} cells, not 5`);
  const [first, last, office, link, date] = cells.map((cell) => (typeof cell === 'string' ? cell : ''));
  return buildRow(first ?? '', last ?? '', office ?? '', link ?? '', date ?? '');
}

function fromObject(row: Record<string, unknown>, index: number): SenateSearchRow {
  const text = (key: string) => (typeof row[key] === 'string' ? (row[key] as string) : '');
  if (text('reportLink') === '') throw new SenateSearchFormatError(`row ${index + 1} has no reportLink`);
  let first = text('firstName');
  let last = text('lastName');
  // "Alexander, Lamar (Senator)" is authoritative; the separate fields are swapped in this source.
  const full = /^([^,(]+),\s*([^(]+?)\s*(?:\(([^)]*)\))?\s*$/.exec(text('fullName'));
  if (full) {
    last = full[1] ?? last;
    first = full[2] ?? first;
  }
  const office = full?.[3] ?? '';
  const link = `<a href="${text('reportLink')}">${text('reportTitle')}</a>`;
  return buildRow(first, last, office, link, text('reportDate'));
}

function buildRow(first: string, last: string, officeCell: string, linkCell: string, dateCell: string) {
  const firstName = nameCase(first);
  const lastName = nameCase(last);
  const href = /href="([^"]*)"/i.exec(linkCell)?.[1] ?? null;
  const title = stripTags(linkCell).replace(/\s+/g, ' ').trim();
  const link = href ? /\/search\/view\/([a-z-]+)\/(?:([a-z-]+)\/)?([0-9a-f-]{36})\/?/i.exec(href) : null;
  const kind = reportKind(link?.[1] ?? '');
  // "Boozman, John (Senator)" in newer responses; "Senator" in older ones.
  const office = /\(([^)]*)\)\s*$/.exec(officeCell)?.[1] ?? officeCell;
  const row: SenateSearchRow = {
    first_name: firstName,
    last_name: lastName,
    filer_name: `${firstName} ${lastName}`.trim(),
    office: office.trim() === '' ? null : decodeEntities(office.trim()),
    report_kind: kind,
    report_id: link?.[3] ? link[3].toLowerCase() : null,
    report_path: href,
    report_title: title,
    is_ptr: /^periodic transaction report/i.test(title),
    is_paper: kind === 'paper',
    is_amendment: /amendment/i.test(title),
    filed_date: parseDate(dateCell),
  };
  return row;
}

function reportKind(segment: string): SenateReportKind {
  const kind = segment.toLowerCase();
  if (kind === 'ptr' || kind === 'paper' || kind === 'annual' || kind === 'extension-notice') return kind;
  return 'other';
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
