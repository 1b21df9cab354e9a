// The period a question asks about, read from its words: years, quarters, halves, months and
// ranges of them, "since …", "the past N months", "last year". Pure: text and today in.

import { MONTH_NAMES } from '../../domain/dates.js';

/** A disclosure-date window, with the words the answer uses for it (never numbers of our own). */
export interface Window {
  dateFrom?: string;
  dateTo?: string;
  days?: number;
  words: string;
}

const MONTH = `(${MONTH_NAMES.join('|')})`;
const YEAR = '((?:19|20)\\d{2})';
/** "between March and June 2020", "from November 2019 to February 2020", "March–June 2021". */
const MONTH_RANGE = new RegExp(
  `\\b${MONTH}(?:\\s+${YEAR})?\\s*(?:and|to|through|thru|until|till|-|–|—)\\s*${MONTH}\\s+${YEAR}\\b`,
  'i',
);
/**
 * A period at the end of a subject ("bank stocks YTD", "Netflix over the past 18 months", "Exxon
 * last spring"): cut off to leave the subject alone.
 */
export const PERIOD_TAIL = new RegExp(
  `\\s*[,;:–—-]?\\s*(?:(?:(?:in|during|over|within|for|from|since|through(?:out)?|across|between|so far in)\\s+)(?:the\\s+)?(?:(?:first|second|third|fourth|last|final|front|back|early|late|mid|start|beginning|end|run[- ]up|lead[- ]up|spring|summer|fall|autumn|winter|q[1-4]|h[12]|${MONTH_NAMES.join('|')}|midterms?|elections?)\\b)|(?:last|past|previous|trailing|this|recent|so far|ytd|year[- ]to[- ]date|recently|lately|q[1-4]|h[12])\\b|(?:early|late|mid)[- ](?:19|20)\\d{2}\\b|since\\b).*$`,
  'i',
);

const monthNumber = (name: string) => MONTH_NAMES.indexOf(name.toLowerCase()) + 1;
const monthStart = (year: string | number, month: number) => `${year}-${String(month).padStart(2, '0')}-01`;

/** "in February 2020", "between March and June 2020" -> those months (transaction dates). */
function monthWindow(text: string): Window | undefined {
  const range = MONTH_RANGE.exec(text);
  if (range?.[1] && range[3] && range[4]) {
    const [first, last] = [monthNumber(range[1]), monthNumber(range[3])];
    // "November to February 2021" without a first year runs over the new year.
    const firstYear = range[2] ?? (first > last ? String(Number(range[4]) - 1) : range[4]);
    const [from, to] = [monthStart(firstYear, first), monthEnd(range[4], last)].sort();
    return { dateFrom: from, dateTo: to, words: 'in the period you asked about' };
  }
  const match = new RegExp(`\\b${MONTH}\\s+${YEAR}\\b`, 'i').exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const month = monthNumber(match[1]);
  return {
    dateFrom: monthStart(match[2], month),
    dateTo: monthEnd(match[2], month),
    words: 'in the month you asked about',
  };
}

/** "since 2022", "since January 2025", "since the start of 2024": from then to today. */
function sinceWindow(text: string, today: Date): Window | undefined {
  const since = new RegExp(
    `\\bsince\\s+(?:the\\s+(?:start|beginning)\\s+of\\s+)?(?:${MONTH}\\s+)?${YEAR}\\b`,
    'i',
  ).exec(text);
  // "since last year", "since last spring": from its start to today.
  const sinceLast = /\bsince\s+(?:the\s+(?:start|beginning)\s+of\s+)?last\s+year\b/.exec(text);
  if (sinceLast)
    return { dateFrom: `${today.getUTCFullYear() - 1}-01-01`, dateTo: iso(today), words: 'since last year' };
  if (!since?.[2]) return undefined;
  return {
    dateFrom: since[1] ? monthStart(since[2], monthNumber(since[1])) : `${since[2]}-01-01`,
    dateTo: iso(today),
    words: since[1] ? 'since the month you asked about' : 'since the year you asked about',
  };
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** The last day of a month (1-12) of a year, as YYYY-MM-DD. */
function monthEnd(year: string, month: number): string {
  const last = new Date(Date.UTC(Number(year), month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
}

const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
};

const COUNT_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/**
 * "Q1 2020", "the first quarter of 2020", "the last quarter of 2021", "the first half of 2020",
 * "H2 2021", "the back half of 2025", "the last three months of 2021", "the first 6 months of
 * 2020": months of a year.
 */
function partOfYear(text: string): Window | undefined {
  const months =
    /\b(first|last|final|closing|opening)\s+(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+months\s+of\s+((?:19|20)\d{2})\b/.exec(
      text,
    );
  const count = months?.[2] ? (COUNT_WORDS[months[2]] ?? Number(months[2])) : 0;
  if (months?.[1] && months[3] && count >= 1 && count <= 12) {
    const fromEnd = /last|final|closing/.test(months[1]);
    const firstMonth = fromEnd ? 13 - count : 1;
    return {
      dateFrom: `${months[3]}-${String(firstMonth).padStart(2, '0')}-01`,
      dateTo: monthEnd(months[3], fromEnd ? 12 : count),
      words: 'in the period you asked about',
    };
  }
  const quarter =
    /\bq([1-4])\s*(?:of\s+)?((?:19|20)\d{2})\b/.exec(text) ??
    /\b(first|second|third|fourth|1st|2nd|3rd|4th|last|final)\s+quarter\s+(?:of\s+)?((?:19|20)\d{2})\b/.exec(
      text,
    );
  const half =
    /\bh([12])\s*(?:of\s+)?((?:19|20)\d{2})\b/.exec(text) ??
    /\b(first|second|1st|2nd|last|front|back)\s+half\s+(?:of\s+)?((?:19|20)\d{2})\b/.exec(text);
  const part = quarter ? { match: quarter, months: 3 } : half ? { match: half, months: 6 } : undefined;
  const [, which, year] = part?.match ?? [];
  if (!part || !which || !year) return undefined;
  // "the last quarter of 2021", "the back half of 2025": the year's last part.
  const number = /last|final|back/.test(which)
    ? 12 / part.months
    : which === 'front'
      ? 1
      : (ORDINALS[which] ?? Number(which));
  const firstMonth = (number - 1) * part.months + 1;
  return {
    dateFrom: `${year}-${String(firstMonth).padStart(2, '0')}-01`,
    dateTo: monthEnd(year, firstMonth + part.months - 1),
    words: 'in the period you asked about',
  };
}

/** The same day `months` calendar months before `today`, as YYYY-MM-DD (clamped to the month's end). */
function monthsBefore(today: Date, months: number): string {
  const target = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(today.getUTCDate(), last));
  return iso(target);
}

/**
 * "between 2020-01-01 and 2020-06-30", "2021-01-01 to 2021-06-30", "Q1 2020", "first half of
 * 2020", "March 2020", "between March and June 2020", "last year", "this year", "in 2024",
 * "last 90 days", "last 6 months"; default: the past year.
 */
export function windowOf(question: string, today: Date): Window {
  const text = periodWords(question.toLowerCase());
  const year = today.getUTCFullYear();
  const isoRange =
    /\b(\d{4}-\d{2}-\d{2})\s*(?:to|and|through|thru|until|till|-|–|—)\s*(\d{4}-\d{2}-\d{2})\b/.exec(text);
  if (isoRange?.[1] && isoRange[2]) {
    const [from, to] = [isoRange[1], isoRange[2]].sort();
    return { dateFrom: from, dateTo: to, words: 'in the period you asked about' };
  }
  const part =
    sinceWindow(text, today) ??
    electionWindow(text, today) ??
    partOfYear(text) ??
    monthWindow(text) ??
    seasonWindow(text, today) ??
    thirdOfYear(text) ??
    yearRange(text);
  if (part) return part;
  if (/\b(?:last|past)\s+(?:year\s+and\s+a\s+half|eighteen\s+months)\b/.test(text))
    return { dateFrom: monthsBefore(today, 18), dateTo: iso(today), words: 'in the period you asked about' };
  if (/\blast year\b|\bprevious year\b|\bpast calendar year\b/.test(text)) {
    return { dateFrom: `${year - 1}-01-01`, dateTo: `${year - 1}-12-31`, words: 'last year' };
  }
  if (
    /\bthis year\b|\byear to date\b|\bytd\b|\bso far\b(?!.*\b(?:19|20)\d{2}\b)(?<!\b(?:19|20)\d{2}\b.*)/.test(
      text,
    )
  ) {
    return { dateFrom: `${year}-01-01`, dateTo: iso(today), words: 'this year' };
  }
  const inYear = /\b(?:in|during|of|for|from)\s+((?:19|20)\d{2})\b/.exec(text);
  if (inYear?.[1]) {
    return {
      dateFrom: `${inYear[1]}-01-01`,
      dateTo: `${inYear[1]}-12-31`,
      words: 'in the year you asked about',
    };
  }
  const span =
    /\b(?:last|past|previous|trailing|recent)\s+(\d{1,4}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(day|week|month|year)s?\b/.exec(
      text,
    );
  const spanCount = span?.[1] ? (COUNT_WORDS[span[1]] ?? Number(span[1])) : 0;
  if (span?.[2] && spanCount > 0) {
    // Months and years are calendar ones: "the past 12 months" on June 1 starts the June 1 before.
    if (span[2] === 'month' || span[2] === 'year') {
      const months = Math.min(120, spanCount * (span[2] === 'year' ? 12 : 1));
      return {
        dateFrom: monthsBefore(today, months),
        dateTo: iso(today),
        words: 'in the period you asked about',
      };
    }
    const days = Math.min(3650, spanCount * (span[2] === 'week' ? 7 : 1));
    return { days, words: 'in the period you asked about' };
  }
  // "Josh Gottheimer purchases 2021": a year standing alone is the year asked about.
  const bareYear = /\b((?:19|20)\d{2})\b/.exec(text);
  if (bareYear?.[1]) {
    return {
      dateFrom: `${bareYear[1]}-01-01`,
      dateTo: `${bareYear[1]}-12-31`,
      words: 'in the year you asked about',
    };
  }
  if (/\b(?:last|past)\s+(month)\b/.test(text)) return { days: 30, words: 'in the past month' };
  if (/\b(?:last|past)\s+(?:fortnight|two\s+weeks)\b/.test(text))
    return { days: 14, words: 'in the period you asked about' };
  if (/\b(?:last|past|previous)\s+quarter\b/.test(text)) return lastQuarter(today);
  if (/\b(?:last|past)\s+(week)\b/.test(text)) return { days: 7, words: 'in the past week' };
  if (/\brecent(?:ly)?\b|\blatest\b/.test(text)) return { days: 90, words: 'recently' };
  return { days: 365, words: 'in the past year' };
}

const SHORT_MONTHS: Record<string, string> = {
  jan: 'january',
  feb: 'february',
  mar: 'march',
  apr: 'april',
  jun: 'june',
  jul: 'july',
  aug: 'august',
  sep: 'september',
  sept: 'september',
  oct: 'october',
  nov: 'november',
  dec: 'december',
};

/**
 * The ways people write the same period, brought to one ("'21" is 2021, "Mar. 2020" and "March of
 * 2020" are March 2020, "2021's first quarter" and "Q1 of 2021" the first quarter of 2021,
 * "fourth-quarter" a fourth quarter, "year-to-date" year to date), so each reader knows one form.
 */
function periodWords(text: string): string {
  return text
    .replace(
      /(^|[\s(])['’](\d{2})\b/g,
      (_all, before: string, short: string) => `${before}${Number(short) > 50 ? '19' : '20'}${short}`,
    )
    .replace(
      /\b(jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?(?=\s*(?:of\s+)?(?:19|20)\d{2}|\s*(?:and|to|through|thru|until|-|–|—)\s*(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))/g,
      (short: string) => SHORT_MONTHS[short.replace('.', '')] ?? short,
    )
    .replace(new RegExp(`\\b${MONTH}\\s+of\\s+${YEAR}\\b`, 'g'), '$1 $2')
    .replace(/\b(first|second|third|fourth|last|final)-(quarter|half)\b/g, '$1 $2')
    .replace(/\byear[- ]to[- ]date\b/g, 'year to date')
    .replace(
      /\b((?:19|20)\d{2})['’]s\s+(first|second|third|fourth|1st|2nd|3rd|4th|last|final|back|front)\s+(quarter|half)\b/g,
      'the $2 $3 of $1',
    )
    .replace(/\b((?:19|20)\d{2})\s*([qh][1-4])\b/g, '$2 $1')
    .replace(/\b([1-4])q\s*((?:19|20)\d{2})\b/g, 'q$1 $2')
    .replace(/\b([12])h\s*((?:19|20)\d{2})\b/g, 'h$1 $2')
    .replace(/\b(?:the\s+)?(?:start|beginning|opening\s+months)\s+of\s+((?:19|20)\d{2})\b/g, (all, year) =>
      /\bsince\s+(?:the\s+)?$/.test(text.slice(0, text.indexOf(all))) ? all : `q1 ${year}`,
    )
    .replace(
      /\b(?:the\s+)?(?:end|close|closing\s+months)\s+of\s+((?:19|20)\d{2})\b|\byear[- ]end\s+((?:19|20)\d{2})\b/g,
      (_all, a, b) => `q4 ${a ?? b}`,
    );
}

const SEASONS: Record<string, number> = { winter: 12, spring: 3, summer: 6, fall: 9, autumn: 9 };

/**
 * "spring 2021", "the summer of 2020", "last fall", "this spring": three months (winter: December
 * of the year before to February). "Last" is the latest that has ended; "this" the one of this year.
 */
function seasonWindow(text: string, today: Date): Window | undefined {
  const named = /\b(winter|spring|summer|fall|autumn)\s+(?:of\s+)?((?:19|20)\d{2})\b/.exec(text);
  const relative = /\b(last|this|past|previous)\s+(winter|spring|summer|fall|autumn)\b/.exec(text);
  const season = named?.[1] ?? relative?.[2];
  if (!season) return undefined;
  const first = SEASONS[season] ?? 3;
  const spans = (year: number) => {
    const start = first === 12 ? Date.UTC(year - 1, 11, 1) : Date.UTC(year, first - 1, 1);
    const end = Date.UTC(year, first === 12 ? 2 : first + 2, 0);
    return { from: iso(new Date(start)), to: iso(new Date(end)) };
  };
  let year = named?.[2] ? Number(named[2]) : today.getUTCFullYear();
  if (!named && relative?.[1] !== 'this') {
    // The latest such season that has ended before today.
    while (spans(year).to >= iso(today)) year -= 1;
  }
  const { from, to } = spans(year);
  return { dateFrom: from, dateTo: to, words: 'in the period you asked about' };
}

/** "between 2019 and 2021", "from 2019 through 2021", "2020-2022", "2019 to 2021": whole years. */
function yearRange(text: string): Window | undefined {
  const range =
    /\b((?:19|20)\d{2})\s*(?:and|to|through|thru|until|till|-|–|—)\s*((?:19|20)\d{2})\b/.exec(text) ??
    /\b((?:19|20)\d{2})\s*[-–—/]\s*(\d{2})\b(?!-)/.exec(text);
  if (!range?.[1] || !range[2]) return undefined;
  const last = range[2].length === 2 ? `${range[1].slice(0, 2)}${range[2]}` : range[2];
  const [from, to] = [range[1], last].sort();
  if (!from || !to || from === to) return undefined;
  return { dateFrom: `${from}-01-01`, dateTo: `${to}-12-31`, words: 'in the period you asked about' };
}

/** The calendar quarter before today's. */
function lastQuarter(today: Date): Window {
  const quarter = Math.floor(today.getUTCMonth() / 3);
  const year = quarter === 0 ? today.getUTCFullYear() - 1 : today.getUTCFullYear();
  const firstMonth = quarter === 0 ? 10 : (quarter - 1) * 3 + 1;
  return {
    dateFrom: monthStart(year, firstMonth),
    dateTo: monthEnd(String(year), firstMonth + 2),
    words: 'in the period you asked about',
  };
}

/** Election day of a year: the Tuesday after the first Monday of November. */
function electionDay(year: number): string {
  const firstOfNovember = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  const firstMonday = 1 + ((8 - firstOfNovember) % 7);
  return iso(new Date(Date.UTC(year, 10, firstMonday + 1)));
}

/**
 * "since the midterms", "since the 2020 election", "in the run-up to the election": federal
 * elections are every even year (midterms: those between presidential years). Without a year, the
 * latest before today. The run-up is the three months before election day.
 */
function electionWindow(text: string, today: Date): Window | undefined {
  const match =
    /\b(since|after|before|ahead\s+of|run[- ]up\s+to|lead[- ]up\s+to|leading\s+up\s+to)\s+(?:the\s+)?(?:((?:19|20)\d{2})\s+)?(midterms?|(?:midterm|presidential|general|last)\s+elections?|elections?)\b/.exec(
      text,
    );
  if (!match?.[1] || !match[3]) return undefined;
  const midterm = /midterm/.test(match[3]);
  const presidential = /presidential/.test(match[3]);
  let year = match[2] ? Number(match[2]) : today.getUTCFullYear();
  if (!match[2]) {
    const fits = (y: number) =>
      y % 2 === 0 &&
      (!midterm || y % 4 === 2) &&
      (!presidential || y % 4 === 0) &&
      electionDay(y) < iso(today);
    while (!fits(year)) year -= 1;
  }
  const day = electionDay(year);
  if (/since|after/.test(match[1]))
    return { dateFrom: day, dateTo: iso(today), words: 'since the election you asked about' };
  const start = new Date(Date.parse(`${day}T00:00:00Z`));
  start.setUTCMonth(start.getUTCMonth() - 3);
  const eve = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000);
  return {
    dateFrom: iso(start),
    dateTo: iso(eve),
    words: 'in the months before the election you asked about',
  };
}

/** "early 2021" (January to April), "mid-2021" (May to August), "late 2021" (September to December). */
function thirdOfYear(text: string): Window | undefined {
  const match = /\b(early|mid|late)[- ]((?:19|20)\d{2})\b/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  const first = match[1] === 'early' ? 1 : match[1] === 'mid' ? 5 : 9;
  return {
    dateFrom: monthStart(match[2], first),
    dateTo: monthEnd(match[2], first + 3),
    words: 'in the period you asked about',
  };
}
