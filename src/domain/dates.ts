// Dates on filings come as MM/DD/YYYY, M/D/YYYY or YYYY-MM-DD; we store YYYY-MM-DD.

const DAY_MS = 86_400_000;

/** Month names in lower case, January first (index + 1 is the month number). */
export const MONTH_NAMES: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** Parses a calendar date; returns null when the text is not a real date. */
export function parseDate(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.trim();
  let year: number;
  let month: number;
  let day: number;
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  if (match) {
    year = Number(match[1]);
    month = Number(match[2]);
    day = Number(match[3]);
  } else {
    match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
    if (!match) return null;
    month = Number(match[1]);
    day = Number(match[2]);
    year = Number(match[3]);
  }
  return isoDate(year, month, day);
}

export function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

// Market computations shift the same few thousand dates by the same few offsets millions of times.
const shifted = new Map<string, string>();

export function addDays(date: string, days: number): string {
  const key = `${date}|${days}`;
  const known = shifted.get(key);
  if (known !== undefined) return known;
  const result = new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
  if (shifted.size >= 500_000) shifted.clear();
  shifted.set(key, result);
  return result;
}

export function todayUtc(now: Date): string {
  return now.toISOString().slice(0, 10);
}
