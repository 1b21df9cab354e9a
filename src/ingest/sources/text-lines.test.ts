import { describe, expect, it } from 'vitest';
import type { PdfText, PdfTextItem } from '../pdf-text.js';
import {
  documentLines,
  headerWordColumns,
  joinItems,
  lineCells,
  startsPage,
  type TextLine,
} from './text-lines.js';

function item(text: string, x: number, y: number, width = text.length * 4): PdfTextItem {
  return { text, x, y, width, size: 9 };
}

describe('documentLines', () => {
  it('groups items by baseline, orders them left to right and drops missing small capitals', () => {
    const pdf: PdfText = {
      producer: null,
      creator: null,
      pages: [
        {
          number: 1,
          width: 612,
          height: 792,
          items: [
            item('Amount', 445, 100.4),
            item('Owner', 65, 100),
            item('F\u0000\u0000\u0000 S\u0000\u0000: New', 104, 120),
          ],
        },
      ],
    };
    const lines = documentLines(pdf);
    expect(lines.map((line) => line.text)).toEqual(['Owner Amount', 'F S: New']);
    expect(lines[0]?.page).toBe(1);
  });
});

describe('joinItems', () => {
  it('joins touching pieces into one word and separates the others', () => {
    expect(joinItems([item('F', 101, 0, 4.5), item('IlINg', 105.5, 0, 19), item('New', 140, 0)])).toBe(
      'FIlINg New',
    );
  });
});

describe('lineCells', () => {
  it('puts each item in the column whose left edge it starts at or after', () => {
    const line = documentLines({
      producer: null,
      creator: null,
      pages: [
        {
          number: 1,
          width: 612,
          height: 792,
          items: [item('SP', 65, 10), item('Apple', 104, 10), item('$1,001 -', 444, 10)],
        },
      ],
    })[0];
    if (!line) throw new Error('no line');
    const cells = lineCells(line, [
      { name: 'owner', x: 65 },
      { name: 'asset', x: 104 },
      { name: 'amount', x: 445 },
    ]);
    expect(cells).toEqual({ owner: 'SP', asset: 'Apple', amount: '$1,001 -' });
  });
});

describe('headerWordColumns', () => {
  const line = (...items: PdfTextItem[]): TextLine => ({ page: 1, y: 100, items, text: '' });

  it('places each column at its header word, in any case, optional ones only when printed', () => {
    const header = line(item('#', 20, 100), item('Description', 40, 100), item('AMOUNT', 300, 100));
    expect(
      headerWordColumns(
        header,
        { number: '#', description: 'DESCRIPTION' },
        { amount: 'amount', type: 'type' },
      ),
    ).toEqual([
      { name: 'number', x: 20 },
      { name: 'description', x: 40 },
      { name: 'amount', x: 300 },
    ]);
    expect(headerWordColumns(header, { number: '#', type: 'TYPE' })).toBeNull();
  });
});

describe('startsPage', () => {
  it('marks the first line of every page', () => {
    const lines = [1, 1, 2, 2, 3].map((page): TextLine => ({ page, y: 0, items: [], text: '' }));
    expect(lines.map((_, index) => startsPage(lines, index))).toEqual([true, false, true, false, true]);
  });
});
