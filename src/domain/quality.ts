// The data-quality rules of a stored trade: one table, read by the quality pass that flags trades,
// the audit that counts the flags, the docs and the API's description of `quality_flags`.
// Pure: a rule reads the trade's own fields and what is known of its filing and its person.
import { formatBracket } from './amount.js';
import { optionTermsStated } from './asset.js';
import { chamberOfSource } from './sources.js';
import { currentSymbolOf } from './symbol-changes.js';
import { marketSymbolOf } from './symbols.js';

/** How a trade's person was matched (trades.identity_match). */
export type IdentityMatch = 'bioguide' | 'name+term' | 'filer' | 'manual';

export const IDENTITY_MATCHES: readonly IdentityMatch[] = ['bioguide', 'name+term', 'filer', 'manual'];

/** What the rules read of one trade. */
export interface QualityInput {
  source: string;
  /** The served ticker (as filed, or resolved from the description when the filer left it out). */
  ticker: string;
  transaction_date: string;
  disclosure_date: string | null;
  amount_range: string | null;
  amount_low: number | null;
  amount_high: number | null;
  asset_type: string | null;
  asset_description: string | null;
  option_type: string | null;
  strike_price: number | null;
  option_expiry: string | null;
  identity_match: string | null;
  /** The person's record: 'legislators' for the roster, else where a filer record came from. */
  politician_origin: string;
  politician_birthday: string | null;
}

export interface QualityRule {
  flag: string;
  /**
   * True when the flag makes the trade meaningless for statistics: it is then left out of member
   * statistics, rankings, analytics and the default `/trades` listing (shown on its filing and with
   * `include_flagged=true`).
   */
  excludes: boolean;
  /** One sentence for the docs and the audit. */
  description: string;
  applies: (trade: QualityInput, today: string) => boolean;
}

// Electronic disclosures start in 2012; the data sets reach back to trades of the 2000s.
const EARLIEST_TRANSACTION = '2000-01-01';

export const QUALITY_RULES: readonly QualityRule[] = [
  {
    flag: 'date_out_of_range',
    excludes: true,
    description:
      'The transaction date is before 2000, after today or before the person was born (a typed year such as 2225).',
    applies: (trade, today) =>
      trade.transaction_date < EARLIEST_TRANSACTION ||
      trade.transaction_date > today ||
      (trade.politician_birthday !== null && trade.transaction_date < trade.politician_birthday),
  },
  {
    flag: 'transaction_after_disclosure',
    excludes: true,
    description:
      'The transaction date is after the date the trade was disclosed: one of the two dates is wrong.',
    applies: (trade) => trade.disclosure_date !== null && trade.transaction_date > trade.disclosure_date,
  },
  {
    flag: 'disclosure_date_missing',
    excludes: false,
    description:
      'Neither the row nor the filing that holds it gives a disclosure date: no `days` window or disclosure lag reaches the trade.',
    applies: (trade) => trade.disclosure_date === null,
  },
  {
    flag: 'amount_not_a_bracket',
    excludes: true,
    description: 'The amount is not one of the disclosure brackets, so volumes cannot count it.',
    applies: (trade) =>
      trade.amount_low === null ||
      trade.amount_range === null ||
      formatBracket(trade.amount_low, trade.amount_high) !== trade.amount_range,
  },
  {
    flag: 'identity_unresolved',
    excludes: false,
    description:
      'A House or Senate trade whose filer matched no legislator by name and term (nor an operator link): held on a filer record of its own, listed by the audit.',
    applies: (trade) =>
      chamberOfSource(trade.source) !== 'Executive' &&
      trade.politician_origin !== 'legislators' &&
      trade.identity_match !== 'manual',
  },
  {
    flag: 'option_terms_unparsed',
    excludes: false,
    description:
      'The description states option terms (call or put, a strike and an expiry) that the option fields do not carry.',
    applies: (trade) =>
      (trade.option_type === null || trade.strike_price === null || trade.option_expiry === null) &&
      optionTermsStated(trade.asset_description),
  },
  {
    flag: 'former_symbol',
    excludes: false,
    description:
      "The ticker is a renamed company's former symbol on the trade's date (FB for Meta Platforms): the trade keeps it as filed, its prices and returns come from the company's current symbol, and its sector from that company or the successor continuing it (Paramount Skydance for Paramount Global).",
    applies: (trade) => formerSymbol(trade.ticker, trade.transaction_date),
  },
];

function formerSymbol(ticker: string, date: string): boolean {
  const market = marketSymbolOf(ticker);
  return market !== null && currentSymbolOf(market.symbol, date, 'renames').changes.length > 0;
}

export const QUALITY_FLAGS: readonly string[] = QUALITY_RULES.map((rule) => rule.flag);

const EXCLUDING = new Set(QUALITY_RULES.filter((rule) => rule.excludes).map((rule) => rule.flag));

/** The flags of one trade, in the table's order. */
export function qualityFlagsOf(trade: QualityInput, today: string): string[] {
  return QUALITY_RULES.filter((rule) => rule.applies(trade, today)).map((rule) => rule.flag);
}

/** Does any of these flags leave the trade out of statistics? */
export function flagsExclude(flags: readonly string[]): boolean {
  return flags.some((flag) => EXCLUDING.has(flag));
}
