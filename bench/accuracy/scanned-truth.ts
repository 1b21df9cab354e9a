// Our transcription of the scanned House PTRs (scanned-house-ptrs.truth.txt), read into rows with
// the same normalized values the OCR stage produces, so the two compare field by field.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AMOUNT_COLUMNS, AMOUNT_LETTERS, parseAmountRange } from '../../src/domain/amount.js';
import { normalizeOwner, type Owner } from '../../src/domain/owner.js';
import { normalizeTradeType } from '../../src/domain/trade-type.js';
import { readScannedDate } from '../../src/ingest/ocr/scanned-fields.js';
import { splitTicker } from '../../src/ingest/sources/asset-text.js';

export const TRUTH_FILE = join(dirname(fileURLToPath(import.meta.url)), 'scanned-house-ptrs.truth.txt');

export type Layout = 'clerk_form' | 'spreadsheet';
export type Writing = 'typed' | 'handwritten';

export interface TruthRow {
  page: number;
  owner: Owner | null;
  asset: string;
  ticker: string;
  tradeType: string | null;
  transactionDate: string | null;
  notificationDate: string | null;
  amount: string | null;
  heading: string | null;
  line: number;
}

export interface TruthDocument {
  file: string;
  layout: Layout;
  writing: Writing;
  filedDate: string;
  rows: TruthRow[];
  headings: Array<{ page: number; text: string }>;
  /** Pages that carry no rows, with what is on them. */
  emptyPages: Array<{ page: number; note: string }>;
}

export function readTruth(path = TRUTH_FILE): TruthDocument[] {
  const documents: TruthDocument[] = [];
  let current: TruthDocument | null = null;
  let heading: string | null = null;
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.startsWith('#') || line.trim() === '') return;
      if (line.startsWith('= ')) {
        const [file, layout, writing, filedDate] = line.slice(2).trim().split(/\s+/);
        current = {
          file: file ?? '',
          layout: layout as Layout,
          writing: writing as Writing,
          filedDate: filedDate ?? '',
          rows: [],
          headings: [],
          emptyPages: [],
        };
        heading = null;
        documents.push(current);
        return;
      }
      const document = current as TruthDocument | null;
      if (!document) throw new Error(`line ${index + 1}: a row before any document`);
      if (line.startsWith('~ ')) {
        const [, page, note] = /^~ (\d+) (.*)$/.exec(line) ?? [];
        document.emptyPages.push({ page: Number(page), note: note ?? '' });
        return;
      }
      if (line.startsWith('@ ')) {
        const [, page, text] = /^@ (\d+) (.*)$/.exec(line) ?? [];
        heading = text ?? '';
        document.headings.push({ page: Number(page), text: heading });
        return;
      }
      const [page, owner, asset, type, date, notified, amount, flags] = line.split('|');
      const { ticker, rest } = splitTicker(asset ?? '');
      const partial = (flags ?? '').split(',').includes('pt');
      const typeText =
        type === 'P'
          ? 'purchase'
          : type === 'E'
            ? 'exchange'
            : type === 'PS' || (type === 'S' && partial)
              ? 'partial sale'
              : type === 'S'
                ? 'sale'
                : '';
      // An empty cell is no column: a string's indexOf('') is 0, which would read it as "A".
      const letter = amount ? AMOUNT_LETTERS.indexOf(amount) : -1;
      document.rows.push({
        page: Number(page),
        owner: normalizeOwner(owner ?? '', true),
        asset: rest,
        ticker,
        tradeType: normalizeTradeType(typeText)?.label ?? null,
        transactionDate: readScannedDate(date ?? '').value,
        notificationDate: readScannedDate(notified ?? '').value,
        amount: letter >= 0 ? (parseAmountRange(AMOUNT_COLUMNS[letter] ?? '')?.range ?? null) : null,
        heading,
        line: index + 1,
      });
    });
  return documents;
}

/** Asset names compare as written, apart from case and runs of spaces. */
export function assetKey(text: string): string {
  return text.toUpperCase().replace(/\s+/g, ' ').trim();
}

/** The looser comparison, reported beside: spaces ignored ("INC.CMN" is "INC. CMN"). */
export function assetLetters(text: string): string {
  return text.toUpperCase().replace(/\s+/g, '');
}
