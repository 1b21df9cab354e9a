// Asset names as filed. Senate eFD pages (and data sets scraped from them) embed option, bond
// and company details as HTML under the name; we keep the name and lift the details out. House
// filers write option terms into the name itself, read here too.
import { isoDate, parseDate } from './dates.js';

export interface AssetDetails {
  description: string;
  optionType: 'Call' | 'Put' | null;
  strikePrice: number | null;
  optionExpiry: string | null;
  /** Remaining detail text (coupon, maturity, company, description), or null. */
  details: string | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const LAST_CODE_POINT = 0x10ffff;

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const value =
        code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      // Past the last code point (U+10FFFF) no character is named; fromCodePoint would throw.
      return value <= LAST_CODE_POINT ? String.fromCodePoint(value) : whole;
    }
    return ENTITIES[code.toLowerCase()] ?? whole;
  });
}

export function stripTags(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

export function parseAssetDescription(
  raw: string | null | undefined,
  tradeDate?: string | null,
): AssetDetails {
  const html = raw ?? '';
  const split = html.search(/<div/i);
  const description = stripTags(split === -1 ? html : html.slice(0, split));
  const detailText = split === -1 ? '' : stripTags(html.slice(split));
  const optionType = /option type:\s*(call|put)/i.exec(detailText)?.[1];
  const strike = /strike price:\s*\$?\s*([\d,]+(?:\.\d+)?)/i.exec(detailText)?.[1];
  const expires = /expires:\s*([\d/]+)/i.exec(detailText)?.[1];
  // No eFD detail block: House filers (and the sets scraped from them) state the terms in the name.
  const prose =
    split === -1 && isOptionProse(description) ? optionTermsFromText(description, tradeDate) : null;
  return {
    description,
    optionType: prose
      ? prose.optionType
      : optionType
        ? optionType.toLowerCase() === 'call'
          ? 'Call'
          : 'Put'
        : null,
    strikePrice: prose ? prose.strikePrice : strike ? Number(strike.replace(/,/g, '')) : null,
    optionExpiry: prose ? prose.optionExpiry : expires ? parseShortDate(expires) : null,
    details: detailText === '' ? null : detailText,
  };
}

/**
 * A name that describes option contracts ("Call options Strike $60, expiry 02/18/22", "Exercised
 * 25 Call options ... expiring 3/18/22 @ $500", "PUT for 09/17/21 @ 580"), not a company named
 * "Option Care Health", a bond's call feature ("NOTE CALL MAKE WHOLE") or a covered-call fund.
 */
export function isOptionProse(text: string): boolean {
  const cleaned = withoutFalseCalls(text);
  if (/\b(call|put)s?\b[\s,-]*(options?|opts?)\b|\b(options?|opts?)\b[\s,-]*(call|put)s?\b/i.test(cleaned))
    return true;
  // "PUT 09/17/21 @ $100", "Jul 16 $320 PUT option", "SPY Feb 2016 put 180.000": a put or call with a strike.
  return (
    /\b(call|put)s?\b/i.test(cleaned) && /(?:@|\bat\b|\$)\s*\d|\b(?:call|put)s?\s+\d+\.\d/i.test(cleaned)
  );
}

/** The text without the words "call" and "put" that name no option. */
function withoutFalseCalls(text: string): string {
  return text
    .replace(
      /\bcall\s+make\s+whole\b|\bmake\s+whole\s+call\b|\b(?:note|mtn)\s+call\b|\bcovered\s+call\b|\bpricing\s+call\b/gi,
      ' ',
    )
    .replace(/\bcall(?:able|ed)\b|\bautocall\b|\bputnam\b/gi, ' ');
}

/**
 * Does the description state an option's terms: call or put, a strike and an expiry with its year?
 * What the quality audit measures the option fields against.
 */
export function optionTermsStated(text: string | null | undefined): boolean {
  if (!text || !isOptionProse(text)) return false;
  const terms = optionTermsFromText(text);
  const hasYear = /\d{1,2}\/\d{1,2}\/\d{2,4}|\b[a-z]{3,9}\.?\s+\d{1,2},?\s*\d{4}\b/i.test(text);
  return terms.optionType !== null && hasYear && /\$\s*\d|@\s*\d|\bat\s+\d|strike/i.test(text);
}

export interface OptionTerms {
  optionType: 'Call' | 'Put' | null;
  strikePrice: number | null;
  optionExpiry: string | null;
}

const NUMBER = '(\\d[\\d,]*(?:\\.\\d+)?)';
const STRIKE_PATTERNS: readonly RegExp[] = [
  new RegExp(`strike(?:\\s+price)?(?:\\s+of)?\\s*(?:at\\s*|@\\s*)?\\$?\\s*${NUMBER}`, 'i'),
  new RegExp(`\\$\\s*${NUMBER}\\s+(?:strike|call|put)`, 'i'),
  // "@ $500", "at $100": only where the amount ends the phrase ("at $20 for cash" is no strike).
  new RegExp(`(?:@|\\bat)\\s*\\$?\\s*${NUMBER}(?=\\s*(?:$|[,;)]|\\.(?!\\d)|strike))`, 'i'),
  new RegExp(`\\b(?:call|put)s?\\s+${NUMBER}\\b`, 'i'),
];

/**
 * Option terms as filers write them in prose: "Purchased 50 call options with a strike price of
 * $150 and an expiration date of 1/16/26", "Call option, strike of $160 expires 9/16/2022",
 * "Call Options $145 strike Expire 09/16/2022", "Exercised 25 Call options ... expiring 3/18/22 @
 * $500", "PUT for 09/17/21 @ 580", "Call Opts at $220, expires 4/9" (the year from `onOrAfter`,
 * the trade's date: the first such day on or after it).
 */
export function optionTermsFromText(text: string, onOrAfter?: string | null): OptionTerms {
  const cleaned = withoutFalseCalls(text);
  const kind = /\b(call|put)s?\b/i.exec(cleaned)?.[1]?.toLowerCase();
  // Dates are read first and taken out, so "12/9" is never read as a strike.
  const expiry = expiryFromText(cleaned, onOrAfter ?? null);
  const rest = expiry.text;
  let strike: string | undefined;
  for (const pattern of STRIKE_PATTERNS) {
    strike = pattern.exec(rest)?.[1];
    if (strike) break;
  }
  const strikePrice = strike ? Number(strike.replace(/,/g, '')) : null;
  return {
    optionType: kind === 'call' ? 'Call' : kind === 'put' ? 'Put' : null,
    strikePrice: strikePrice !== null && Number.isFinite(strikePrice) && strikePrice > 0 ? strikePrice : null,
    optionExpiry: expiry.date,
  };
}

function expiryFromText(text: string, onOrAfter: string | null): { date: string | null; text: string } {
  // The date after an expiry word wins ("purchased 11/22/23 ... with an expiration date of 12/20/24").
  const anchored =
    /(?:expir\w*|\bexp\.?|expiry)(?:\s+date)?(?:\s+of|\s+on)?[\s:]*(\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2}))(?!\d)/i.exec(
      text,
    );
  const numeric = anchored ?? /(\d{1,2}\/\d{1,2}\/(?:\d{4}|\d{2}))(?!\d)/.exec(text);
  if (numeric?.[1]) {
    return { date: parseShortDate(numeric[1]), text: text.replace(numeric[1], ' ') };
  }
  // "March 19, 2021 $180 PUT Option", "Jun 18 2021 $3060.00 PUT option", "April 16,2021 PUT".
  const named = /\b([a-z]{3,9})\.?\s+(\d{1,2}),?\s*(\d{4})\b/i.exec(text);
  const namedDate = named ? monthNameDate(named[1] ?? '', named[2], named[3]) : null;
  if (named && namedDate) return { date: namedDate, text: text.replace(named[0], ' ') };
  if (!onOrAfter) return { date: null, text };
  // No year: "expires 4/9", "Jul 16 $320 PUT".
  const short = /(?:expir\w*|exp\.?|expiry|for)\s*(\d{1,2})\/(\d{1,2})(?![\d/])/i.exec(text);
  if (short)
    return {
      date: nextDate(Number(short[1]), Number(short[2]), onOrAfter),
      text: text.replace(short[0], ' '),
    };
  const shortNamed = /\b([a-z]{3,9})\.?\s+(\d{1,2})\b(?!,?\s*\d{4})/i.exec(text);
  const month = shortNamed ? MONTHS.indexOf((shortNamed[1] ?? '').slice(0, 3).toLowerCase()) : -1;
  if (
    shortNamed &&
    month !== -1 &&
    /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$/i.test(shortNamed[1] ?? '')
  )
    return {
      date: nextDate(month + 1, Number(shortNamed[2]), onOrAfter),
      text: text.replace(shortNamed[0], ' '),
    };
  return { date: null, text };
}

/** The first month/day on or after the date. */
function nextDate(month: number, day: number, onOrAfter: string): string | null {
  const year = Number(onOrAfter.slice(0, 4));
  const same = isoDate(year, month, day);
  if (same && same >= onOrAfter) return same;
  return isoDate(year + 1, month, day);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "March 19, 2021" or "Jun 18 2021" as YYYY-MM-DD; null for a word that is no month. */
function monthNameDate(month: string, day: string | undefined, year: string | undefined): string | null {
  const index = MONTHS.indexOf(month.slice(0, 3).toLowerCase());
  return index === -1 ? null : isoDate(Number(year), index + 1, Number(day));
}

/** M/D/YY (two-digit years are this century) or M/D/YYYY. */
export function parseShortDate(text: string): string | null {
  const short = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(text.trim());
  if (short) return parseDate(`${short[1]}/${short[2]}/20${short[3]}`);
  return parseDate(text);
}

const ASSET_TYPES: Record<string, string> = {
  stock: 'Stock',
  'stock option': 'Option',
  option: 'Option',
  options: 'Option',
  'other securities': 'Other Securities',
  'corporate bond': 'Corporate Bond',
  'municipal security': 'Municipal Security',
  'non-public stock': 'Non-Public Stock',
  cryptocurrency: 'Cryptocurrency',
  'commodities/futures contract': 'Commodities/Futures Contract',
  etf: 'ETF',
  'mutual fund': 'Mutual Fund',
  'government security': 'Government Security',
};

/**
 * The asset type to serve. Sources that leave it blank get "Option" when option details are
 * present, "Stock" when the asset has a ticker, and null otherwise.
 */
export function normalizeAssetType(
  raw: string | null | undefined,
  ticker: string,
  details: AssetDetails,
): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (details.optionType) return 'Option';
  if (text !== '') return ASSET_TYPES[text.toLowerCase()] ?? text;
  if (/\b(call|put)s? options?\b/i.test(details.description)) return 'Option';
  return ticker === 'N/A' ? null : 'Stock';
}
