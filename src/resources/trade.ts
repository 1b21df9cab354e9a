// The Trade resource: its schema (the single source for validation, serialization, OpenAPI and
// the trade.created payload) and the completion of a stored trade row into it.
import { type Static, Type } from 'typebox';
import { daysBetween } from '../domain/dates.js';
import { QUALITY_FLAGS } from '../domain/quality.js';
import { GICS_SECTORS } from '../domain/sectors.js';
import { chamberOfSource } from '../domain/sources.js';
import type { TradeRecord } from '../storage/repositories/trades.js';
import { Nullable, StringEnum } from './schema.js';

const num = (description: string) => Nullable(Type.Number({ description }));
const str = (description: string) => Nullable(Type.String({ description }));

export const TradeSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Trade id' }),
    politician_id: Type.Integer({ description: 'Member id' }),
    politician_name: Type.String(),
    politician_slug: Type.String(),
    party: str('D, R or I'),
    party_name: str(
      'Full party name as the roster gives it (Democrat, Republican, Independent, Libertarian ...)',
    ),
    state: str('Two-letter state code'),
    chamber: Type.String({ description: 'House, Senate or Executive' }),
    ticker: Type.String({ description: 'Ticker, or "N/A" when the asset has no public ticker' }),
    trade_type: Type.String({ description: 'Buy, Sell, Sell (Partial), Exchange, Exercise or Expired' }),
    asset_type: str('Stock, Option, Corporate Bond, ... (null when the filing does not say)'),
    asset_description: str('Asset name as on the filing'),
    amount_range: str('Disclosed dollar bracket as text'),
    amount_low: num('Lower bound of the bracket'),
    amount_high: num('Upper bound of the bracket (null for open-ended brackets)'),
    transaction_date: Type.String({ description: 'YYYY-MM-DD' }),
    disclosure_date: str('YYYY-MM-DD'),
    days_to_disclose: Nullable(Type.Integer()),
    source: Type.String({ description: 'house_clerk, senate_efd or oge' }),
    owner: str('Self, Spouse, Joint or Dependent Child (null when the source does not say)'),
    filing_id: Nullable(Type.Integer()),
    filing_url: str('Original disclosure document'),
    comment: str('Filer comment'),
    sector: Nullable(
      StringEnum(GICS_SECTORS, {
        description: 'GICS sector of the company (one of eleven; domain/sectors.ts)',
      }),
    ),
    industry: str('Company industry'),
    price_on_trade_date: num('Close on the transaction date'),
    price_on_disclosure: num('Close on the disclosure date'),
    gain_7d: num('Percent change 7 days after the transaction'),
    gain_30d: num('Percent change 30 days after the transaction'),
    gain_60d: num('Percent change 60 days after the transaction'),
    gain_90d: num('Percent change 90 days after the transaction'),
    gain_1yr: num('Percent change one year after the transaction'),
    alpha_30d: num('gain_30d minus the S&P 500 (plan-gated)'),
    alpha_90d: num('gain_90d minus the S&P 500 (plan-gated)'),
    alpha_1yr: num('gain_1yr minus the S&P 500 (plan-gated)'),
    public_gain_30d: num('Percent change 30 days after disclosure'),
    public_gain_90d: num('Percent change 90 days after disclosure'),
    public_gain_180d: num('Percent change 180 days after disclosure'),
    public_alpha_30d: num('public_gain_30d minus the S&P 500 (plan-gated)'),
    public_alpha_90d: num('public_gain_90d minus the S&P 500 (plan-gated)'),
    public_alpha_180d: num('public_gain_180d minus the S&P 500 (plan-gated)'),
    current_return: num('Transaction date to latest close, trades of the last two years (plan-gated)'),
    current_alpha: num('current_return minus the S&P 500 (plan-gated)'),
    days_held: Type.Integer({ description: 'Days since the transaction date' }),
    option_type: str('Call or Put'),
    strike_price: num('Option strike'),
    option_expiry: str('Option expiry, YYYY-MM-DD'),
    conviction_score: num('Notability rating 0-100 (plan-gated)'),
    peer_z_score: num("Z-score of gain_30d among other members' trades in the same stock and direction"),
    is_ma_affected: Type.Integer({ description: '1 when a merger or delisting broke the price history' }),
    superseded_by: Nullable(
      Type.Integer({ description: 'Id of the trade an amendment replaced this one with' }),
    ),
    // For API consumers syncing and joining: the member's Bioguide id, the House cap-gains box,
    // the time of the last change.
    bioguide_id: str(
      "The member's Bioguide id (e.g. P000197); null for executive-branch filers and unmatched names",
    ),
    cap_gains_over_200: Nullable(
      Type.Boolean({
        description:
          'House PTRs: the filer ticked "Cap. Gains > $200?" (true) or left it empty (false); null where the filing or data set does not say (Senate and OGE forms have no such column; House PDFs that draw the box as a picture)',
      }),
    ),
    updated_at: Type.String({
      description:
        'When what this trade says last changed (ISO 8601, UTC): ingested, amended, re-enriched. Sync with updated_since',
    }),
    // Identity and data quality (docs/data-quality.md).
    identity_match: Nullable(
      StringEnum(['bioguide', 'name+term', 'filer', 'manual'], {
        description:
          "How the trade's person was matched: bioguide (a data set's id that agreed with name and term), name+term, filer (a filer record of its own), manual (an operator's link)",
      }),
    ),
    quality_flags: Type.Array(Type.String(), {
      description: `Data-quality flags from the rule table (docs/data-quality.md): ${QUALITY_FLAGS.join(', ')}. Empty when none`,
    }),
    exchange_from_ticker: str('Exchange: the symbol given up, when the filing names it'),
    exchange_to_ticker: str('Exchange: the symbol received, when the filing names it'),
    // Where the values came from (docs/ocr.md).
    parse_method: StringEnum(['text', 'ocr', 'manual'], {
      description:
        "How the values were read: text (the document's text layer, or a data set), ocr (a scanned filing read by OCR, every field sure enough to serve, or accepted as read on review), manual (corrected by a person on review)",
    }),
    parse_confidence: Nullable(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description:
          "The lowest confidence of the row's fields (dates, owner, type, bracket, asset, ticker) as the OCR stage read them, in [0, 1]; null for rows read from text",
      }),
    ),
  },
  { description: 'One disclosed transaction' },
);
export type Trade = Static<typeof TradeSchema>;

export const TRADE_EXAMPLE: Trade = {
  id: 1042,
  politician_id: 17,
  politician_name: 'Nancy Pelosi',
  politician_slug: 'nancy-pelosi',
  party: 'D',
  party_name: 'Democrat',
  state: 'CA',
  chamber: 'House',
  ticker: 'NVDA',
  trade_type: 'Buy',
  asset_type: 'Option',
  asset_description: 'NVIDIA Corporation - Common Stock',
  amount_range: '$1,000,001 - $5,000,000',
  amount_low: 1000001,
  amount_high: 5000000,
  transaction_date: '2024-12-20',
  disclosure_date: '2025-01-17',
  days_to_disclose: 28,
  source: 'house_clerk',
  owner: 'Spouse',
  filing_id: 311,
  filing_url: 'https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/2025/20026590.pdf',
  comment: 'Purchased 50 call options with a strike price of $80 and an expiration date of 1/16/2026.',
  sector: 'Information Technology',
  industry: 'Semiconductors',
  price_on_trade_date: 134.7,
  price_on_disclosure: 137.71,
  gain_7d: 2.11,
  gain_30d: -11.44,
  gain_60d: -13.3,
  gain_90d: -11.62,
  gain_1yr: null,
  alpha_30d: -13.68,
  alpha_90d: -8.12,
  alpha_1yr: null,
  public_gain_30d: -12.03,
  public_gain_90d: -20.55,
  public_gain_180d: 14.1,
  public_alpha_30d: -13.02,
  public_alpha_90d: -17.3,
  public_alpha_180d: 6.9,
  current_return: 31.2,
  current_alpha: 12.4,
  days_held: 337,
  option_type: 'Call',
  strike_price: 80,
  option_expiry: '2026-01-16',
  conviction_score: 72,
  peer_z_score: null,
  is_ma_affected: 0,
  superseded_by: null,
  bioguide_id: 'P000197',
  cap_gains_over_200: null,
  updated_at: '2025-01-18T06:02:11.412Z',
  identity_match: 'name+term',
  quality_flags: [],
  exchange_from_ticker: null,
  exchange_to_ticker: null,
  parse_method: 'text',
  parse_confidence: null,
};

/**
 * Completes a stored row into the Trade resource, in place: rows are fresh objects per query,
 * and copying fifty fields per row was a tenth of the cost of a /trades call.
 */
export function toTradeResource(record: TradeRecord, today: string): Trade {
  // `sector` is stored only through domain/sectors.ts (the company directory), so it is a GICS name.
  const flags = record.quality_flags;
  const resource = record as unknown as Omit<
    TradeRecord,
    'quality_flags' | 'identity_match' | 'cap_gains_over_200'
  > &
    Pick<
      Trade,
      'chamber' | 'days_held' | 'sector' | 'quality_flags' | 'identity_match' | 'cap_gains_over_200'
    >;
  resource.chamber = chamberOfSource(record.source) ?? 'House';
  resource.days_held = Math.max(0, daysBetween(record.transaction_date, today));
  // Stored comma-separated (storage/repositories/quality.ts); served as a list.
  resource.quality_flags = flags ? flags.split(',') : [];
  // Stored as 1/0 (SQLite has no boolean type).
  const capGains = record.cap_gains_over_200 as number | boolean | null;
  resource.cap_gains_over_200 = capGains === null ? null : Boolean(capGains);
  return resource as Trade;
}
