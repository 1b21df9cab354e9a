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

export function parseAssetDescription(raw: string | null | undefined): AssetDetails {
  const html = raw ?? '';
  const split = html.search(/<div/i);
  const description = stripTags(split === -1 ? html : html.slice(0, split));
  const detailText = split === -1 ? '' : stripTags(html.slice(split));
  const optionType = /option type:\s*(call|put)/i.exec(detailText)?.[1];
  const strike = /strike price:\s*\$?\s*([\d,]+(?:\.\d+)?)/i.exec(detailText)?.[1];
  const expires = /expires:\s*([\d/]+)/i.exec(detailText)?.[1];
  // No eFD detail block: House filers (and the sets scraped from them) state the terms in the name.
  const prose = split === -1 && isOptionProse(description) ? optionTermsFromText(description) : null;
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
 * A name that describes option contracts held ("Call options Strike $60, expiry 02/18/22"), not
 * options exercised: an exercise is a stock trade (as the House PDF parser treats it), and a
 * company named "Option Care Health" is no option.
 */
function isOptionProse(text: string): boolean {
  return (
    /\b(call|put)s?\b[\s,-]*options?\b|\boptions?\b[\s,-]*(call|put)s?\b/i.test(text) &&
    !/\bexc?ercis/i.test(text)
  );
}

export interface OptionTerms {
  optionType: 'Call' | 'Put' | null;
  strikePrice: number | null;
  optionExpiry: string | null;
}

/**
 * Option terms as filers write them in prose: "Purchased 50 call options with a strike price of
 * $150 and an expiration date of 1/16/26", "Call option, strike of $160 expires 9/16/2022",
 * "Call Options $145 strike Expire 09/16/2022", "Call options Strike $60, expiry 02/18/22".
 */
export function optionTermsFromText(text: string): OptionTerms {
  const kind = /\b(call|put)s?\b/i.exec(text)?.[1]?.toLowerCase();
  // "March 19, 2021 $180 PUT Option", "Jun 18 2021 $3060.00 PUT option": expiry, strike, kind.
  const dated = /\b([a-z]{3,9})\.?\s+(\d{1,2}),?\s*(\d{4})\s+\$\s*([\d,]+(?:\.\d+)?)\s+(?:call|put)\b/i.exec(
    text,
  );
  const strike =
    /strike(?:\s+price)?(?:\s+of)?\s*(?:at\s*)?\$\s*([\d,]+(?:\.\d+)?)/i.exec(text)?.[1] ??
    /\$\s*([\d,]+(?:\.\d+)?)\s+(?:strike|call|put)\b/i.exec(text)?.[1];
  const expiry =
    /(?:expir(?:ation|ing|es|e|y)?(?:\s+date)?(?:\s+of|\s+on)?|\bfor)[\s:]*(\d{1,2}\/\d{1,2}\/\d{2,4})\b/i.exec(
      text,
    )?.[1];
  return {
    optionType: kind === 'call' ? 'Call' : kind === 'put' ? 'Put' : null,
    strikePrice: strike ? Number(strike.replace(/,/g, '')) : null,
    optionExpiry: expiry
      ? parseShortDate(expiry)
      : dated
        ? monthNameDate(dated[1] ?? '', dated[2], dated[3])
        : null,
  };
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
