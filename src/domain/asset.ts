// Asset names as filed. Senate eFD pages (and data sets scraped from them) embed option, bond
// and company details as HTML under the name; we keep the name and lift the details out.
import { parseDate } from './dates.js';

export interface AssetDetails {
  description: string;
  optionType: 'Call' | 'Put' | null;
  strikePrice: number | null;
  optionExpiry: string | null;
  /** Remaining detail text (coupon, maturity, company, description), or null. */
  details: string | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const value =
        code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return Number.isFinite(value) ? String.fromCodePoint(value) : whole;
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
  return {
    description,
    optionType: optionType ? (optionType.toLowerCase() === 'call' ? 'Call' : 'Put') : null,
    strikePrice: strike ? Number(strike.replace(/,/g, '')) : null,
    optionExpiry: expires ? parseShortOrLongDate(expires) : null,
    details: detailText === '' ? null : detailText,
  };
}

function parseShortOrLongDate(text: string): string | null {
  const short = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(text);
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
