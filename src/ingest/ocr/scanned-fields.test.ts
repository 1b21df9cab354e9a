// Constructed inputs (strings as the engine returns them, ink shares as the cells measure them):
// the rules that turn a reading into a value and a confidence.
import { describe, expect, it } from 'vitest';
import { judgeMarks } from './cell-ink.js';
import { nearMonthNameDate, readOwnerCode, readScannedDate, tidyAssetText } from './scanned-fields.js';

describe('nearMonthNameDate', () => {
  it('takes the one month name a letter away, and no other', () => {
    // As read on 8220750's last page ("15-lan-25" at every scale, for 15-Jan-25).
    expect(nearMonthNameDate('15-lan-25')).toBe('2025-01-15');
    expect(nearMonthNameDate('31-fan-25')).toBe('2025-01-31');
    expect(nearMonthNameDate('3-Ocx-2024')).toBe('2024-10-03');
    // Mar and May alike, two letters off, a month read cleanly, or a day that is no day.
    expect(nearMonthNameDate('15-Mat-25')).toBeNull();
    expect(nearMonthNameDate('15-lxn-25')).toBeNull();
    expect(nearMonthNameDate('15-Jan-25')).toBeNull();
    expect(nearMonthNameDate('31-fcb-25')).toBeNull();
  });
});

describe('readScannedDate', () => {
  it('reads the formats filers mix on one page, unrepaired', () => {
    expect(readScannedDate('01/14/25')).toEqual({ value: '2025-01-14', repaired: false });
    expect(readScannedDate('1/27/2025')).toEqual({ value: '2025-01-27', repaired: false });
    expect(readScannedDate('15-Jan-25')).toEqual({ value: '2025-01-15', repaired: false });
    expect(readScannedDate('Jan 15, 2025')).toEqual({ value: '2025-01-15', repaired: false });
  });

  it('repairs letters read for digits, and says it did', () => {
    expect(readScannedDate('O1/l4/25')).toEqual({ value: '2025-01-14', repaired: true });
    expect(readScannedDate('01//14/25')).toEqual({ value: '2025-01-14', repaired: true });
  });

  it('gives no date for text that is none (never a guess)', () => {
    expect(readScannedDate('13/45/25').value).toBeNull();
    expect(readScannedDate('see attached').value).toBeNull();
  });
});

describe('readOwnerCode', () => {
  it('takes a clean code as read and blank as the filer', () => {
    expect(readOwnerCode('DC')).toEqual({ code: 'DC', repaired: false });
    expect(readOwnerCode(' ')).toEqual({ code: '', repaired: false });
  });

  it('repairs a code one of whose letters is a known misread', () => {
    expect(readOwnerCode('Dc')).toEqual({ code: 'DC', repaired: false });
    expect(readOwnerCode('5P')).toEqual({ code: 'SP', repaired: true, bothLetters: true });
    expect(readOwnerCode('J7')).toEqual({ code: 'JT', repaired: true, bothLetters: true });
    expect(readOwnerCode('D')).toEqual({ code: 'DC', repaired: true });
  });

  it('says when both letters name the code, one of them exactly as printed', () => {
    // Owner cells of 8220750 as the engine read them.
    for (const text of ['oc', 'bc', '_oC', '_0oC'])
      expect(readOwnerCode(text)).toMatchObject({ code: 'DC', bothLetters: true });
    expect(readOwnerCode('_5p')).toMatchObject({ code: 'SP', bothLetters: true });
    // Neither letter as printed: two lookalikes.
    expect(readOwnerCode('0(')).toEqual({ code: 'DC', repaired: true, bothLetters: false });
  });

  it('refuses letters that name two different codes', () => {
    expect(readOwnerCode('SC')).toBeNull();
    expect(readOwnerCode('WXYZ')).toBeNull();
  });
});

describe('tidyAssetText', () => {
  it('drops rule fragments and stray punctuation around a name', () => {
    expect(tidyAssetText('| METLIFE , INC.  CMN _')).toBe('METLIFE, INC. CMN');
    expect(tidyAssetText('GE Vernova LLC ( GEV)')).toBe('GE Vernova LLC (GEV)');
  });
});

describe('judgeMarks', () => {
  it('marks the inked cell and is sure when the others are blank', () => {
    expect(judgeMarks([0.001, 0.06, 0.002])).toMatchObject({ marked: [1], clarity: 1 });
  });

  it('loses clarity for a cell near the mark threshold', () => {
    const reading = judgeMarks([0.001, 0.06, 0.011]);
    expect(reading.marked).toEqual([1]);
    expect(reading.clarity).toBeLessThan(0.2);
  });

  it('does not count a filled (blacked-out) cell as a mark', () => {
    expect(judgeMarks([0.9, 0.002]).marked).toEqual([]);
  });
});
