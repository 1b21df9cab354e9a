// Constructed readings of the House form's rows (what the form reader hands over for one row,
// made up for tests of the rules that judge them).
import type { MarkReading } from '../ingest/ocr/cell-ink.js';
import type { CellReading, HouseRow } from '../ingest/ocr/house-page.js';

export function cell(text: string, confidence = 0.96): CellReading {
  return {
    text,
    confidence,
    inked: text !== '',
    words: text
      .split(/\s+/)
      .filter(Boolean)
      .map((word) => ({ text: word, confidence })),
  };
}

export const clearMark = (index: number, columns: number): MarkReading => ({
  marked: [index],
  shares: Array.from({ length: columns }, (_, column) => (column === index ? 0.06 : 0.001)),
  clarity: 1,
});

export function houseRow(asset: string, overrides: Partial<HouseRow> = {}): HouseRow {
  return {
    order: 1,
    region: { x: 0, y: 0, width: 100, height: 20 },
    owner: cell('SP'),
    ownerShape: null,
    asset: cell(asset),
    assetLines: 1,
    date: cell('01/17/25'),
    notification: cell('02/04/25'),
    types: clearMark(0, 3),
    amounts: clearMark(0, 11),
    heading: null,
    notes: [],
    ...overrides,
  };
}

export const context = {
  page: 1,
  row: 1,
  filedDate: '2025-02-06',
  typeRoles: ['purchase', 'sale', 'exchange'] as const,
};
