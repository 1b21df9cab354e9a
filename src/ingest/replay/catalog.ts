// What the replay server serves, read from the shared data directory (`<dir>/congress/raw-*`):
//   - House: per year, the most complete recorded index (XML or TXT), cut down to the rows whose PTR
//     PDF is in the recording so that every listed document can be fetched; the PDFs by DocID.
//   - Senate: the recorded eFD PTR pages (files of pages saved back to back, split on the doctype),
//     listed as eFD search rows. The pages do not carry their report UUID: a page gets the real one
//     when the Senate Stock Watcher per-report files (`trades-senate/senate-stock-watcher/data`)
//     recorded exactly one report of that filer, filed that day, with the same rows; otherwise a
//     UUID derived from its content. Plus the recorded search rows of paper PTRs (real UUIDs, no
//     page to serve).
//   - OGE: every recorded 278 PDF, by file name.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { zipSync } from 'fflate';
import { parseDate } from '../../domain/dates.js';
import { containsPhrase, nameTokens } from '../../domain/names.js';
import { filesUnder } from '../../files.js';
import { parseHouseIndex } from '../sources/house/index-file.js';
import { parseSenatePtrPage } from '../sources/senate/ptr-page.js';
import { parseSenateSearchResults } from '../sources/senate/search-results.js';

export interface HouseYear {
  /** The file the index was cut from, e.g. "2025FD.txt". */
  sourceFile: string;
  /** Name inside the zip: YYYYFD.xml or YYYYFD.txt. */
  entryName: string;
  /** The recorded index text restricted to rows with a recorded PDF. */
  text: string;
  docIds: Set<string>;
}

export interface SenateReport {
  uuid: string;
  /** "ptr" pages are served; "paper" rows are only listed. */
  kind: 'ptr' | 'paper';
  html: string | null;
  /** The eFD search row: [first, last, office, link, MM/DD/YYYY]. */
  row: [string, string, string, string, string];
  filedDate: string;
}

export interface ReplayCatalog {
  house: { years: Map<number, HouseYear>; pdfs: Map<string, string> };
  senate: { reports: SenateReport[]; byUuid: Map<string, SenateReport> };
  oge: { pdfs: Map<string, string> };
}

export class ReplayDataError extends Error {}

/** Accepts the shared data directory or its `congress` folder. */
export function congressDir(dataDir: string): string {
  const nested = join(dataDir, 'congress');
  if (existsSync(join(nested, 'raw-house'))) return nested;
  if (existsSync(join(dataDir, 'raw-house'))) return dataDir;
  throw new ReplayDataError(
    `${dataDir} holds no congress/raw-house folder (expected the shared data directory)`,
  );
}

export function loadCatalog(dataDir: string): ReplayCatalog {
  const root = congressDir(dataDir);
  return { house: loadHouse(root), senate: loadSenate(root), oge: loadOge(root) };
}

function loadHouse(root: string): ReplayCatalog['house'] {
  const pdfs = new Map<string, string>();
  for (const path of filesUnder(join(root, 'raw-house', 'ptr-pdfs'), (name) => /^\d+\.pdf$/i.test(name))) {
    pdfs.set(basename(path).replace(/\.pdf$/i, ''), path);
  }
  const best = new Map<number, { path: string; rows: number }>();
  for (const path of filesUnder(join(root, 'raw-house', 'index'), (name) =>
    /^\d{4}FD.*\.(xml|txt)$/i.test(name),
  )) {
    const year = Number(basename(path).slice(0, 4));
    const rows = parseHouseIndex(readFileSync(path, 'utf8')).length;
    const current = best.get(year);
    // The most complete recording of the year; the XML when both forms are equally complete.
    if (!current || rows > current.rows || (rows === current.rows && /\.xml$/i.test(path))) {
      best.set(year, { path, rows });
    }
  }
  const years = new Map<number, HouseYear>();
  for (const [year, { path }] of best) {
    const xml = /\.xml$/i.test(path);
    const { text, docIds } = restrictIndex(readFileSync(path, 'utf8'), xml, new Set(pdfs.keys()));
    years.set(year, {
      sourceFile: basename(path),
      entryName: `${year}FD.${xml ? 'xml' : 'txt'}`,
      text,
      docIds,
    });
  }
  return { years, pdfs };
}

/** The index with only the rows whose DocID is in `keep`, every kept byte as recorded. */
function restrictIndex(text: string, xml: boolean, keep: ReadonlySet<string>) {
  const docIds = new Set<string>();
  if (xml) {
    const kept = text.replace(/\s*<Member>[\s\S]*?<\/Member>/g, (block) => {
      const docId = /<DocID>\s*([^<\s]+)\s*<\/DocID>/.exec(block)?.[1] ?? '';
      if (!keep.has(docId)) return '';
      docIds.add(docId);
      return block;
    });
    return { text: kept, docIds };
  }
  const lines = text.split(/(?<=\n)/);
  const header = lines[0] ?? '';
  const rows = lines.slice(1).filter((line) => {
    const docId =
      line
        .replace(/\r?\n$/, '')
        .split('\t')
        .at(-1)
        ?.trim() ?? '';
    if (!keep.has(docId)) return false;
    docIds.add(docId);
    return true;
  });
  return { text: header + rows.join(''), docIds };
}

export function houseIndexZip(year: HouseYear): Uint8Array {
  return zipSync({ [year.entryName]: new TextEncoder().encode(year.text) });
}

function loadSenate(root: string): ReplayCatalog['senate'] {
  const reports: SenateReport[] = [];
  const byUuid = new Map<string, SenateReport>();
  const add = (report: SenateReport) => {
    if (byUuid.has(report.uuid)) return;
    byUuid.set(report.uuid, report);
    reports.push(report);
  };
  const known = loadKnownSenateReports(root);
  const seen = new Set<string>();
  for (const path of filesUnder(join(root, 'raw-senate', 'efd-ptr-html'), (name) => /\.html?$/i.test(name))) {
    for (const html of splitPages(readFileSync(path, 'utf8'))) {
      const page = parseSenatePtrPage(html);
      const filedDate = page.filing.filed_date;
      if (!filedDate) continue;
      // The recordings hold some pages twice: the same bytes are the same report.
      const hash = contentUuid(html);
      if (seen.has(hash)) continue;
      seen.add(hash);
      const recorded = recordedUuid(known, page, filedDate);
      const uuid = recorded && !byUuid.has(recorded) ? recorded : hash;
      const [first, last] = nameParts(page.filing);
      const title = page.filing.title ?? 'Periodic Transaction Report';
      add({
        uuid,
        kind: 'ptr',
        html,
        filedDate,
        row: [
          first,
          last,
          `${last}, ${first} (${page.filing.filer_status ?? 'Senator'})`,
          `<a href="/search/view/ptr/${uuid}/" target="_blank">${title}</a>`,
          usDate(filedDate),
        ],
      });
    }
  }
  for (const path of filesUnder(join(root, 'raw-senate', 'efd-search-json'), (name) =>
    /\.json$/i.test(name),
  )) {
    const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const rows = Array.isArray(json) ? json : [];
    const parsed = parseSenateSearchResults(rows).rows;
    parsed.forEach((row, index) => {
      const raw = rows[index];
      if (!row.is_ptr || !row.is_paper || !row.report_id || !row.filed_date || !isRow(raw)) return;
      add({ uuid: row.report_id, kind: 'paper', html: null, filedDate: row.filed_date, row: raw });
    });
  }
  reports.sort((a, b) => b.filedDate.localeCompare(a.filedDate) || a.uuid.localeCompare(b.uuid));
  return { reports, byUuid };
}

interface KnownSenateReport {
  uuid: string;
  /** The filer's last name as word tokens. */
  lastName: string[];
  /** ISO transaction dates of its rows, sorted. */
  dates: string[];
}

/** The eFD report UUIDs the Senate Stock Watcher per-report files recorded, by ISO filed date. */
function loadKnownSenateReports(root: string): Map<string, KnownSenateReport[]> {
  const known = new Map<string, KnownSenateReport[]>();
  const dir = join(root, 'trades-senate', 'senate-stock-watcher', 'data');
  for (const path of filesUnder(dir, (name) => /\.json$/i.test(name))) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      continue; // not ours to judge here: `import trades` reports unreadable files
    }
    if (!Array.isArray(json)) continue;
    for (const report of json as unknown[]) {
      if (typeof report !== 'object' || report === null) continue;
      const { ptr_link, last_name, date_recieved, transactions } = report as Record<string, unknown>;
      const uuid =
        typeof ptr_link === 'string' ? /\/ptr\/([0-9a-f-]{36})\/?/i.exec(ptr_link)?.[1] : undefined;
      const filed = typeof date_recieved === 'string' ? parseDate(date_recieved) : null;
      if (!uuid || !filed || typeof last_name !== 'string' || !Array.isArray(transactions)) continue;
      const dates = transactions.map((row) =>
        parseDate(String((row as Record<string, unknown> | null)?.transaction_date ?? '')),
      );
      const entry = {
        uuid: uuid.toLowerCase(),
        lastName: nameTokens(last_name),
        dates: dates.map((date) => date ?? '').sort(),
      };
      known.set(filed, [...(known.get(filed) ?? []), entry]);
    }
  }
  return known;
}

/**
 * The real UUID of a recorded page: the one recorded report of the same filer (last name), filed the
 * same day, with as many rows and the same transaction dates. Anything less certain is no match.
 */
function recordedUuid(
  known: Map<string, KnownSenateReport[]>,
  page: ReturnType<typeof parseSenatePtrPage>,
  filedDate: string,
): string | null {
  const names = [page.filing.filer_last_name, page.filing.filer_display_name, page.filing.filer_name]
    .filter((name): name is string => Boolean(name))
    .map(nameTokens);
  const rows = page.trades.length + page.rejected.length;
  const dates = page.trades.map((trade) => trade.transaction_date);
  const matches = (known.get(filedDate) ?? []).filter(
    (report) =>
      names.some((tokens) => containsPhrase(tokens, report.lastName)) &&
      report.dates.length === rows &&
      containsAll(report.dates, dates),
  );
  return matches.length === 1 ? (matches[0]?.uuid ?? null) : null;
}

/** Whether every value of `part` is in `whole`, counting repeats (both may be unsorted). */
function containsAll(whole: string[], part: string[]): boolean {
  const left = new Map<string, number>();
  for (const value of whole) left.set(value, (left.get(value) ?? 0) + 1);
  for (const value of part) {
    const n = left.get(value) ?? 0;
    if (n === 0) return false;
    left.set(value, n - 1);
  }
  return true;
}

function isRow(value: unknown): value is [string, string, string, string, string] {
  return Array.isArray(value) && value.length === 5 && value.every((cell) => typeof cell === 'string');
}

function splitPages(html: string): string[] {
  return html.split(/(?=<!DOCTYPE html>)/i).filter((part) => /<html/i.test(part));
}

/** A stable UUID-shaped id from a page's bytes (eFD report ids are random v4 UUIDs). */
export function contentUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function nameParts(filing: {
  filer_first_name: string | null;
  filer_last_name: string | null;
  filer_display_name: string | null;
}): [string, string] {
  if (filing.filer_first_name && filing.filer_last_name)
    return [filing.filer_first_name, filing.filer_last_name];
  const words = (filing.filer_display_name ?? '').split(/\s+/).filter(Boolean);
  return [words.slice(0, -1).join(' '), words.at(-1) ?? ''];
}

function usDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

function loadOge(root: string): ReplayCatalog['oge'] {
  const pdfs = new Map<string, string>();
  for (const path of filesUnder(join(root, 'raw-oge'), (name) => /\.pdf$/i.test(name))) {
    pdfs.set(basename(path), path);
  }
  return { pdfs };
}
