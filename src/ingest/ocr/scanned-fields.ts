// Field values as the engine reads them off a scanned form, turned into the values we store,
// with how much the text itself supports the value: a date read as "01/14/25" is a clean read;
// one that needed "O" turned into "0" is a repaired one and counts for less.
import { isoDate } from '../../domain/dates.js';

export interface ScannedDate {
  /** YYYY-MM-DD, or null when the text is no date. */
  value: string | null;
  /** The text needed repairs (letters read for digits, a stray character) before it parsed. */
  repaired: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Letters the engine reads in place of digits on forms. */
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  l: '1',
  I: '1',
  i: '1',
  '|': '1',
  ']': '1',
  '[': '1',
  '!': '1',
  Z: '2',
  z: '2',
  S: '5',
  s: '5',
  B: '8',
  g: '9',
};

function fullYear(year: string): number {
  const value = Number(year);
  return year.length <= 2 ? 2000 + value : value;
}

function numericDate(text: string): string | null {
  // MM/DD/YY(YY), MM-DD-YYYY, MM.DD.YY; the separators may be read as any of the three.
  const match = /^(\d{1,2})[/\-.](\d{1,2})[/\-.](\d{2}|\d{4})$/.exec(text);
  if (!match) return null;
  return isoDate(fullYear(match[3] ?? ''), Number(match[1]), Number(match[2]));
}

function monthNameDate(text: string): string | null {
  // 15-Jan-25 (spreadsheets' default), Jan 15, 2025.
  const dayFirst = /^(\d{1,2})[\s\-/.]*([A-Za-z]{3,9})[\s\-/.,]*(\d{2}|\d{4})$/.exec(text);
  if (dayFirst) {
    const month = MONTHS.indexOf((dayFirst[2] ?? '').slice(0, 3).toLowerCase());
    if (month >= 0) return isoDate(fullYear(dayFirst[3] ?? ''), month + 1, Number(dayFirst[1]));
  }
  const monthFirst = /^([A-Za-z]{3,9})[\s\-/.]*(\d{1,2})[\s\-/.,]*(\d{2}|\d{4})$/.exec(text);
  if (monthFirst) {
    const month = MONTHS.indexOf((monthFirst[1] ?? '').slice(0, 3).toLowerCase());
    if (month >= 0) return isoDate(fullYear(monthFirst[3] ?? ''), month + 1, Number(monthFirst[2]));
  }
  return null;
}

/**
 * A "15-Jan-25" date whose month name was read one letter off ("15-lan-25", "15-fan-25": J is
 * thin and the engine reads it as l, f, i), taken as the one month name that near, or null when
 * none or several are ("Mat" is Mar or May). Day and year must read cleanly. It stays a repair: the
 * month is what the engine did not read, so the value is a guess to confirm.
 */
export function nearMonthNameDate(raw: string): string | null {
  const match = /^(\d{1,2})[\s\-/.]*([A-Za-z]{3})[\s\-/.,]*(\d{2}|\d{4})$/.exec(raw.trim());
  if (!match) return null;
  const word = (match[2] ?? '').toLowerCase();
  const near = MONTHS.flatMap((month, index) => {
    let differing = 0;
    for (let at = 0; at < 3; at++) if (month[at] !== word[at]) differing++;
    return differing === 1 ? [index] : [];
  });
  if (near.length !== 1 || MONTHS.includes(word)) return null;
  return isoDate(fullYear(match[3] ?? ''), (near[0] ?? 0) + 1, Number(match[1]));
}

/** A date as written on a form, in the formats filers use side by side on one page. */
export function readScannedDate(raw: string): ScannedDate {
  const text = raw.replace(/\s+/g, '').replace(/^[^0-9A-Za-z]+|[^0-9A-Za-z]+$/g, '');
  const clean = numericDate(text) ?? monthNameDate(raw.trim().replace(/\s+/g, ' '));
  if (clean) return { value: clean, repaired: false };
  const repaired = text
    .split('')
    .map((character) => DIGIT_LOOKALIKES[character] ?? character)
    .join('')
    // A separator read as "1" between two-digit groups ("01114125") cannot be told apart; a
    // doubled separator can.
    .replace(/[/\-.]{2,}/g, '/');
  const value = numericDate(repaired);
  return { value, repaired: true };
}

type OwnerCode = 'SP' | 'DC' | 'JT';

/** Characters the engine reads for the letters of the three codes, by position in the code. */
const FIRST_LETTER: Record<string, OwnerCode> = {
  S: 'SP',
  '5': 'SP',
  $: 'SP',
  D: 'DC',
  O: 'DC',
  '0': 'DC',
  B: 'DC',
  J: 'JT',
};
const SECOND_LETTER: Record<string, OwnerCode> = {
  P: 'SP',
  F: 'SP',
  R: 'SP',
  C: 'DC',
  G: 'DC',
  '(': 'DC',
  T: 'JT',
  I: 'JT',
  '7': 'JT',
};

/**
 * A House owner code from what the engine read; blank is the filer. The three codes differ in
 * both letters, so each letter alone names the code: when the two agree the reading is clean,
 * when only one is recognized it is repaired, when they disagree it is no code (null).
 */
export function readOwnerCode(
  raw: string,
): { code: OwnerCode | ''; repaired: boolean; bothLetters?: boolean } | null {
  const text = raw.toUpperCase().replace(/[^A-Z0-9$(]/g, '');
  if (text === '') return { code: '', repaired: false };
  if (text === 'SP' || text === 'DC' || text === 'JT') return { code: text, repaired: false };
  if (text.length > 3) return null;
  const first = FIRST_LETTER[text[0] ?? ''];
  const second = text.length >= 2 ? SECOND_LETTER[text[text.length - 1] ?? ''] : undefined;
  if (first && second) {
    if (first !== second) return null;
    // Both letters name the code, one of them as read ("oc", "bc" for DC; "5p" for SP).
    const exact = text[0] === first[0] || text[text.length - 1] === first[1];
    return { code: first, repaired: true, bothLetters: exact };
  }
  const only = first ?? second;
  return only ? { code: only, repaired: true } : null;
}

/** The text of an asset cell, tidied: one space between words, stray rule fragments dropped. */
export function tidyAssetText(raw: string): string {
  return raw
    .replace(/[|_]+/g, ' ')
    .replace(/\s+([,.)])/g, '$1')
    .replace(/([(])\s+/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/^[\s\-—–.,:;'"`]+|[\s\-—–,:;'"`]+$/g, '')
    .trim();
}
