// Disclosure amount brackets. Filers pick from fixed brackets; sources print them with line
// breaks, missing upper bounds or odd spellings, and all of them map back to one bracket.

export interface AmountBracket {
  /** Canonical text, e.g. "$1,001 - $15,000" or "Over $50,000,000". */
  range: string;
  low: number;
  /** Null for open-ended brackets ("Over $1,000,000", "Over $50,000,000"). */
  high: number | null;
}

export const STANDARD_BRACKETS: ReadonlyArray<readonly [number, number | null]> = [
  [1_001, 15_000],
  [15_001, 50_000],
  [50_001, 100_000],
  [100_001, 250_000],
  [250_001, 500_000],
  [500_001, 1_000_000],
  [1_000_001, 5_000_000],
  [5_000_001, 25_000_000],
  [25_000_001, 50_000_000],
  [50_000_001, null],
];

const dollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatBracket(low: number, high: number | null): string {
  if (high === null) return `Over $${dollars.format(low - 1)}`;
  return `$${dollars.format(low)} - $${dollars.format(high)}`;
}

/**
 * The amount columns A to K of the paper PTRs (House and Senate), as the forms print them: the
 * standard brackets, then the spouse or dependent child's open bracket.
 */
export const AMOUNT_COLUMNS: readonly string[] = [
  ...STANDARD_BRACKETS.map(([low, high]) => formatBracket(low, high)),
  'Spouse/DC Over $1,000,000',
];

/** The letter of each amount column, in the order of AMOUNT_COLUMNS. */
export const AMOUNT_LETTERS = 'ABCDEFGHIJK';

function bracket(low: number, high: number | null): AmountBracket {
  return { range: formatBracket(low, high), low, high };
}

function parseDollars(text: string): number | null {
  const digits = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d+)?$/.test(digits)) return null;
  return Number(digits);
}

/**
 * Parses a bracket as printed on a House, Senate or OGE filing or a derived data set.
 * Returns null for text that is not a bracket (e.g. "$224.00", "Unknown").
 */
export function parseAmountRange(raw: string | null | undefined): AmountBracket | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text === '') return null;

  // "Over $50,000,000", "$50,000,000 +", "Spouse/DC Over $1,000,000"
  const over = /over\s*\$?\s*([\d,]+)|\$?\s*([\d,]+)\s*\+$/i.exec(text);
  if (over) {
    const value = parseDollars(over[1] ?? over[2] ?? '');
    if (value === null) return null;
    if (value === 1_000_000 || value === 1_000_001) return bracket(1_000_001, null);
    if (value === 50_000_000 || value === 50_000_001) return bracket(50_000_001, null);
    return null;
  }

  const parts = text.split(/\s*[-–]\s*/);
  const low = parseDollars(parts[0] ?? '');
  if (low === null || !Number.isInteger(low)) return null;
  const highText = parts[1]?.trim() ?? '';
  const high = highText === '' ? null : parseDollars(highText);

  const byLow = STANDARD_BRACKETS.find(([l]) => l === low || l === low + 1);
  if (high === null) {
    // A bracket whose upper bound was cut off ("$15,001 -") is still identified by its lower bound.
    if (highText !== '' || !byLow || byLow[1] === null || parts.length < 2) return null;
    return bracket(byLow[0], byLow[1]);
  }
  const exact = STANDARD_BRACKETS.find(([l, h]) => h === high && (l === low || l === low + 1));
  if (exact) return bracket(exact[0], exact[1]);
  // Older spouse brackets and filer-written ranges that are not standard keep their own bounds.
  if (high > low && low >= 1_000) return { range: formatBracket(low, high), low, high };
  return null;
}
