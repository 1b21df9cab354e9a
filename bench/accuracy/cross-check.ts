// Cross-checks our parsers against independent parses of the same reports in the shared data:
// - Senate Stock Watcher's per-report files (eFD pages; matched by filer, filed date and rows,
//   because the saved eFD pages do not carry their report UUID);
// - TattooedHead's House Stock Watcher re-creation (House PDFs; `filing_id` is the DocID);
// - the House Stock Watcher export (hand-entered; matched by member and disclosure date).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { parseDate } from '../../src/domain/dates.js';
import { foldAccents } from '../../src/domain/names.js';
import { extractPdfText } from '../../src/ingest/pdf-text.js';
import type { ParsedDocument } from '../../src/ingest/sources/document.js';
import { parseHousePtrPdf } from '../../src/ingest/sources/house/ptr-pdf.js';
import { parseOge278Pdf } from '../../src/ingest/sources/oge/t278-pdf.js';
import { parseSenatePtrPage, splitEfdPages } from '../../src/ingest/sources/senate/ptr-page.js';
import {
  comparableFields,
  FIELDS,
  type Field,
  pairRows,
  type RowPair,
  type TheirRow,
  type TypeGranularity,
} from './compare.js';

export interface Disagreement {
  source: string;
  document: string;
  row: number;
  asset: string;
  field: Field;
  ours: string;
  theirs: string;
}

export interface SourceResult {
  source: string;
  description: string;
  documentsCompared: number;
  documentsWithoutCounterpart: number;
  rowsPaired: number;
  /** Our rows with no counterpart in a matched document (the other set dropped or merged them). */
  rowsOnlyOurs: number;
  /** Their rows with no counterpart in a matched document. */
  rowsOnlyTheirs: Array<{ document: string; row: TheirRow }>;
  fields: Record<Field, { compared: number; agreed: number }>;
  disagreements: Disagreement[];
}

export interface CrossCheck {
  sources: SourceResult[];
  /** Self-consistency findings that need no third party, one sentence each. */
  completeness: string[];
}

interface OurDocument {
  label: string;
  document: ParsedDocument;
  /** The document's text, for completeness checks. */
  text: string;
}

interface TheirDocument {
  label: string;
  rows: TheirRow[];
}

export async function crossCheck(dataDir: string): Promise<CrossCheck> {
  const congress = join(dataDir, 'congress');
  const house = await parseHousePdfs(congress);
  const senate = parseSenateFiles(congress);
  const oge = await parseOgePdfs(congress);
  return {
    sources: [
      compareSenateStockWatcher(congress, senate),
      compareTattooedHead(congress, house),
      compareHouseStockWatcherExport(congress, house),
    ],
    completeness: [houseCompleteness(house), senateCompleteness(senate), ogeCompleteness(oge)],
  };
}

/** Every House transaction line carries one "[XX]" asset code, so codes in the text = rows. */
function houseCompleteness(house: readonly OurDocument[]): string {
  const parsed = house.filter(({ document }) => document.status === 'parsed');
  const mismatches = parsed.filter(({ document, text }) => {
    const codes = (text.match(/\[[A-Za-z0-9]{2}\]/g) ?? []).length;
    return codes !== document.trades.length + document.rejected.length;
  });
  const trades = parsed.reduce((sum, { document }) => sum + document.trades.length, 0);
  return `House: ${parsed.length} e-filed PTRs, ${trades} trades; in ${parsed.length - mismatches.length} of them the number of "[XX]" asset codes in the text layer equals the rows read${mismatches.length > 0 ? ` (differs in ${mismatches.map(({ label }) => label).join(', ')})` : ''}.`;
}

/** eFD pages announce "(N transactions total)"; the table must have N rows. */
function senateCompleteness(senate: readonly OurDocument[]): string {
  const mismatches = senate.filter(({ document, text }) => {
    const declared = /\((\d+)\s+transactions?\s+total\)/i.exec(text);
    return !declared || Number(declared[1]) !== document.trades.length + document.rejected.length;
  });
  const trades = senate.reduce((sum, { document }) => sum + document.trades.length, 0);
  return `Senate: ${senate.length} distinct eFD pages, ${trades} trades; ${senate.length - mismatches.length} pages have exactly the number of rows they announce ("(N transactions total)")${mismatches.length > 0 ? `; not: ${mismatches.map(({ label }) => label).join(', ')}` : ''}.`;
}

/** Integrity.gov numbers rows 1..N: a gap among the rows we read would be a row we lost. */
function ogeCompleteness(oge: readonly OurDocument[]): string {
  const parsed = oge.filter(({ document }) => document.status === 'parsed' || document.rejected.length > 0);
  const gaps = parsed.filter(({ document }) => {
    const numbers = new Set([
      ...document.trades.map((trade) => trade.row),
      ...document.rejected.map((row) => row.row),
      ...document.warnings.map((warning) => Number(/^row (\d+) /.exec(warning)?.[1] ?? Number.NaN)),
    ]);
    const highest = Math.max(0, ...[...numbers].filter(Number.isFinite));
    return [...Array(highest).keys()].some((index) => !numbers.has(index + 1));
  });
  const trades = parsed.reduce((sum, { document }) => sum + document.trades.length, 0);
  const rejected = parsed.reduce((sum, { document }) => sum + document.rejected.length, 0);
  return `OGE: ${parsed.length} readable 278-T/278e reports, ${trades} trades and ${rejected} rows rejected with a reason; row numbers run 1..N without a gap in ${parsed.length - gaps.length} of them${gaps.length > 0 ? ` (gaps in ${gaps.map(({ label }) => label).join(', ')})` : ''}.`;
}

async function parseOgePdfs(congress: string): Promise<OurDocument[]> {
  const dir = join(congress, 'raw-oge', 'open-cabinet-278t', 'pdfs');
  const documents: OurDocument[] = [];
  for (const name of readdirSync(dir).sort()) {
    const document = parseOge278Pdf(await extractPdfText(new Uint8Array(readFileSync(join(dir, name)))));
    documents.push({ label: `OGE ${name}`, document, text: '' });
  }
  return documents;
}

async function parseHousePdfs(congress: string): Promise<OurDocument[]> {
  const documents: OurDocument[] = [];
  for (const folder of ['efiled-2025', 'pelosi-2021-2022']) {
    const dir = join(congress, 'raw-house', 'ptr-pdfs', folder);
    for (const name of readdirSync(dir).sort()) {
      const pdf = await extractPdfText(new Uint8Array(readFileSync(join(dir, name))));
      const document = parseHousePtrPdf(pdf);
      const text = pdf.pages.flatMap((page) => page.items.map((item) => item.text)).join(' ');
      documents.push({ label: `House ${document.filing.source_doc_id ?? name}`, document, text });
    }
  }
  return documents;
}

function parseSenateFiles(congress: string): OurDocument[] {
  const documents: OurDocument[] = [];
  const seen = new Set<string>();
  for (const year of ['2020', '2021']) {
    const html = readFileSync(
      join(congress, 'raw-senate', 'efd-ptr-html', `efd_ptr_pages_${year}_sample.html`),
      'utf8',
    );
    const texts = splitEfdPages(html);
    texts.forEach((text, index) => {
      const document = parseSenatePtrPage(text);
      // The saved files repeat a few pages verbatim; a repeated page is one report.
      const identity = JSON.stringify([document.filing, document.trades]);
      if (seen.has(identity)) return;
      seen.add(identity);
      documents.push({ label: `eFD ${year} page ${index + 1}`, document, text });
    });
  }
  return documents;
}

interface SswReport {
  first_name: string;
  last_name: string;
  ptr_link: string;
  date_recieved: string;
  transactions: Array<{
    transaction_date: string;
    owner: string;
    ticker: string;
    asset_description: string;
    type: string;
    amount: string;
  }>;
}

function compareSenateStockWatcher(congress: string, ours: readonly OurDocument[]): SourceResult {
  const dir = join(congress, 'trades-senate', 'senate-stock-watcher', 'data');
  const reports: SswReport[] = [];
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    reports.push(...(JSON.parse(readFileSync(join(dir, name), 'utf8')) as SswReport[]));
  }
  const electronic = reports.filter((report) => /\/ptr\//.test(report.ptr_link));
  const candidates = (document: ParsedDocument): TheirDocument[] => {
    const last = lastName(document.filing.filer_last_name ?? document.filing.filer_display_name ?? '');
    return electronic
      .filter((report) => lastName(report.last_name) === last)
      .filter((report) => parseDate(report.date_recieved) === document.filing.filed_date)
      .map((report) => ({
        label: `SSW report ${/\/ptr\/([0-9a-f-]+)/i.exec(report.ptr_link)?.[1] ?? report.ptr_link}`,
        rows: report.transactions.map((transaction) => ({
          transaction_date: transaction.transaction_date,
          owner: transaction.owner,
          ticker: transaction.ticker,
          type: transaction.type,
          amount: transaction.amount,
          description: transaction.asset_description,
        })),
      }));
  };
  return compareSource(
    {
      source: 'Senate Stock Watcher',
      description:
        'timothycarambat/senate-stock-watcher-data per-report files (`data/*.json`, scraped from the same eFD pages); pages matched by filer last name, filed date = `date_recieved`, then by rows. The set ends with reports received on 2021-03-10, so most 2021 pages have no counterpart; 16 earlier pages (mostly amendments) are not in it either.',
      granularity: 'label',
    },
    ours,
    candidates,
  );
}

interface TattooedHeadRow {
  transaction_date: string;
  ticker: string;
  asset_description: string;
  type: string;
  amount: string;
  owner: string;
  filing_id: string | number;
}

function compareTattooedHead(congress: string, ours: readonly OurDocument[]): SourceResult {
  const path = join(
    congress,
    'trades-house',
    'tattooedhead-house-stock-watcher',
    'all_transactions_2026-05-29_early.json',
  );
  const rows = JSON.parse(readFileSync(path, 'utf8')) as TattooedHeadRow[];
  const byFiling = new Map<string, TheirRow[]>();
  for (const row of rows) {
    const id = String(row.filing_id);
    const list = byFiling.get(id) ?? [];
    list.push({
      transaction_date: row.transaction_date,
      owner: row.owner,
      ticker: row.ticker,
      type: row.type,
      amount: row.amount,
      description: row.asset_description,
    });
    byFiling.set(id, list);
  }
  return compareSource(
    {
      source: 'TattooedHead House Stock Watcher',
      description:
        'TattooedHead/house-stock-watcher-data `all_transactions.json` (2026-05-29 early version; pdfplumber parse of the same Clerk PDFs); filings matched by `filing_id` = DocID. That set keeps only the stock rows it could parse (its manifest counts the others as "jammed"), hence our many rows without a counterpart. Its type says only Purchase/Sale/Exchange, so types are compared as buy/sell/exchange.',
      granularity: 'action',
    },
    ours,
    (document) => {
      const id = document.filing.source_doc_id ?? '';
      const theirs = byFiling.get(id);
      return theirs ? [{ label: `TattooedHead filing ${id}`, rows: theirs }] : [];
    },
  );
}

interface HswExportRow {
  disclosure_date: string;
  transaction_date: string;
  asset_description: string;
  ticker: string;
  type: string;
  amount: string;
  representative: string;
  district: string;
}

function compareHouseStockWatcherExport(congress: string, ours: readonly OurDocument[]): SourceResult {
  const path = join(congress, 'trades-house', 'hsw-export-ambika-nair', 'unclean_transactions_25_april.csv');
  const rows = parseCsv(readFileSync(path, 'utf8'), {
    columns: true,
    skip_empty_lines: true,
  }) as HswExportRow[];
  return compareSource(
    {
      source: 'House Stock Watcher export',
      description:
        'Ambika-Nair/US_House_Stock_Watcher export of the original House Stock Watcher (volunteer-entered from the PDFs; no owner column); reports matched by member, seat and disclosure date = our filing date',
      granularity: 'label',
    },
    ours,
    (document) => {
      const last = lastName(document.filing.filer_display_name ?? '');
      const seat = document.filing.state_district;
      const theirs = rows.filter(
        (row) =>
          row.district === seat &&
          lastName(row.representative) === last &&
          row.disclosure_date === document.filing.filed_date,
      );
      if (theirs.length === 0) return [];
      return [
        {
          label: `HSW export ${last} ${document.filing.filed_date}`,
          rows: theirs.map((row) => ({
            transaction_date: row.transaction_date,
            ticker: row.ticker,
            type: row.type,
            amount: row.amount,
            description: row.asset_description,
          })),
        },
      ];
    },
  );
}

interface SourceSettings {
  source: string;
  description: string;
  granularity: TypeGranularity;
}

function compareSource(
  settings: SourceSettings,
  ours: readonly OurDocument[],
  candidatesFor: (document: ParsedDocument) => TheirDocument[],
): SourceResult {
  const result: SourceResult = {
    source: settings.source,
    description: settings.description,
    documentsCompared: 0,
    documentsWithoutCounterpart: 0,
    rowsPaired: 0,
    rowsOnlyOurs: 0,
    rowsOnlyTheirs: [],
    fields: Object.fromEntries(
      FIELDS.map((field) => [field, { compared: 0, agreed: 0 }]),
    ) as SourceResult['fields'],
    disagreements: [],
  };
  // Every (our report, their report) candidate is scored, and the best-agreeing couples are taken
  // first: a filer who filed several reports on one day (an original and amendments) gets each
  // report paired with its own counterpart, not with whichever came first.
  const couples: Array<{
    label: string;
    document: ParsedDocument;
    their: TheirDocument;
    paired: Paired;
    quality: number;
  }> = [];
  const unmatched = new Set<string>();
  for (const { label, document } of ours) {
    if (document.status !== 'parsed') continue;
    unmatched.add(label);
    for (const their of candidatesFor(document)) {
      const paired = pairRows(document.trades, their.rows, settings.granularity);
      if (paired.pairs.length === 0) continue;
      couples.push({ label, document, their, paired, quality: quality(paired, settings.granularity) });
    }
  }
  couples.sort((a, b) => b.quality - a.quality);
  const usedTheirs = new Set<string>();
  for (const couple of couples) {
    if (!unmatched.has(couple.label) || usedTheirs.has(couple.their.label)) continue;
    unmatched.delete(couple.label);
    usedTheirs.add(couple.their.label);
    const { document, paired } = couple;
    result.documentsCompared += 1;
    const name = `${couple.label} (${document.filing.filer_display_name ?? '?'}, filed ${document.filing.filed_date ?? '?'}) = ${couple.their.label}`;
    result.rowsPaired += paired.pairs.length;
    result.rowsOnlyOurs += paired.onlyOurs.length;
    for (const row of paired.onlyTheirs) result.rowsOnlyTheirs.push({ document: name, row });
    for (const pair of paired.pairs) tally(result, name, pair, settings.granularity);
  }
  result.documentsWithoutCounterpart = unmatched.size;
  return result;
}

type Paired = ReturnType<typeof pairRows<TheirRow>>;

/** Share of both reports' rows that pair up, weighted by how many fields of each pair agree. */
function quality(paired: Paired, granularity: TypeGranularity): number {
  const rows = paired.pairs.length + paired.onlyOurs.length + paired.onlyTheirs.length;
  const agreeing = paired.pairs.reduce((sum, pair) => {
    const fields = Object.values(comparableFields(pair.ours, pair.theirs, granularity));
    return sum + fields.filter((values) => values.ours === values.theirs).length / fields.length;
  }, 0);
  return rows === 0 ? 0 : agreeing / rows;
}

function tally(
  result: SourceResult,
  document: string,
  pair: RowPair<TheirRow>,
  granularity: TypeGranularity,
): void {
  const fields = comparableFields(pair.ours, pair.theirs, granularity);
  for (const field of FIELDS) {
    const values = fields[field];
    if (!values) continue;
    result.fields[field].compared += 1;
    if (values.ours === values.theirs) {
      result.fields[field].agreed += 1;
      continue;
    }
    result.disagreements.push({
      source: result.source,
      document,
      row: pair.ours.row,
      asset: pair.ours.asset_description,
      field,
      ours: values.ours,
      theirs: values.theirs,
    });
  }
}

function lastName(raw: string): string {
  const words = foldAccents(raw)
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/,.*$/, '')
    .split(/[^a-z]+/)
    .filter(
      (word) =>
        word !== '' && !['jr', 'sr', 'ii', 'iii', 'iv', 'hon', 'mr', 'mrs', 'ms', 'dr'].includes(word),
    );
  return words[words.length - 1] ?? '';
}
