// What `data` holds for the event types whose resource the REST API does not serve yet (Form 4,
// lobbying, contracts, 13D/G), and the index-time context disclosure.detected adds to the Filing
// resource. trade.created is the Trade resource of GET /trades. These schemas are the contract:
// the catalog publishes them, the test endpoint sends their examples, and emitters build their
// data with the types derived here (trade and disclosure data through payloads.ts).
import { type Static, Type } from 'typebox';
import { Nullable } from '../resources/schema.js';

const text = (description: string) => Type.String({ description });
const maybeText = (description: string) => Nullable(Type.String({ description }));
const maybeNumber = (description: string) => Nullable(Type.Number({ description }));
const date = (description: string) => Type.String({ description: `${description}, YYYY-MM-DD` });
const maybeDate = (description: string) =>
  Nullable(Type.String({ description: `${description}, YYYY-MM-DD` }));

/**
 * disclosure.detected is the Filing resource of GET /filings/{id} plus what is known when the
 * filing first appears in an index (payloads.ts builds it). These are the added fields; the
 * catalog publishes them merged into the Filing schema.
 */
export const DisclosureContextSchema = Type.Object({
  member: maybeText('Member name as the politician resource has it (null when the filer is unmatched)'),
  party: maybeText('D, R or I'),
  chamber: maybeText('House, Senate or Executive'),
  tickers: Type.Array(Type.String(), {
    description: 'Tickers known when the event fires (empty before the document is parsed)',
  }),
  est_amount_high: maybeNumber('Upper bound of the disclosed amounts when known; null before parsing'),
  is_high_signal: Type.Boolean({
    description:
      'The filer moved at least $1M (sum of bracket tops) in trades disclosed over the previous year',
  }),
});

/** The context part of the catalog's disclosure.detected example. */
export const DISCLOSURE_CONTEXT_EXAMPLE = {
  member: 'Nancy Pelosi',
  party: 'D',
  chamber: 'House',
  tickers: ['NVDA'],
  estAmountHigh: 5_000_000,
  isHighSignal: true,
};

export const InsiderFiledSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Insider transaction id' }),
    accession_number: text('SEC accession number of the Form 4'),
    insider_name: text('Reporting owner'),
    insider_title: maybeText('Officer title or relationship (Director, 10% owner, ...)'),
    issuer_name: text('Company'),
    issuer_cik: maybeText('Company CIK'),
    ticker: maybeText('Issuer ticker'),
    transaction_type: text('Purchase, Sale, Grant, Exercise, Gift, ...'),
    transaction_code: text('Form 4 transaction code (P, S, A, M, G, ...)'),
    transaction_date: date('Transaction date'),
    filed_date: date('Filing date'),
    shares: Type.Number({ description: 'Shares in the transaction' }),
    price_per_share: maybeNumber('Price per share'),
    total_value: maybeNumber('shares × price_per_share'),
    shares_owned_after: maybeNumber('Shares held after the transaction'),
    has_politician_overlap: Type.Boolean({
      description: 'A member traded this ticker within 30 days of the transaction',
    }),
    overlapping_politicians: Type.Array(Type.String(), { description: 'Slugs of those members' }),
    url: text('The filing on EDGAR'),
  },
  { description: 'A Form 4 insider transaction' },
);
export type InsiderFiledData = Static<typeof InsiderFiledSchema>;

export const LobbyingFiledSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Lobbying filing id' }),
    filing_uuid: text('Senate LDA filing UUID'),
    registrant_name: text('Lobbying firm (or the client when it lobbies for itself)'),
    client_name: text('Client'),
    ticker: maybeText("Client's ticker, when the client is a listed company"),
    amount: maybeNumber('Income or expenses reported for the period, in dollars'),
    filing_period: text('first_quarter, second_quarter, mid_year, ...'),
    filing_year: Type.Integer(),
    filing_type: text('LDA filing type (RR, Q1, Q2, ...)'),
    issues: Type.Array(Type.String(), { description: 'General issue area codes (TAX, DEF, HCR, ...)' }),
    filed_date: date('Date posted'),
    url: text('The filing on lda.senate.gov'),
  },
  { description: 'A federal lobbying (LDA) filing' },
);
export type LobbyingFiledData = Static<typeof LobbyingFiledSchema>;

export const ContractAwardedSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Contract award id' }),
    award_id: text('USAspending award id (PIID)'),
    recipient_name: text('Recipient'),
    ticker: maybeText("Recipient's (or its parent's) ticker"),
    awarding_agency: text('Awarding agency'),
    awarding_sub_agency: maybeText('Awarding sub-agency'),
    amount: Type.Number({ description: 'Obligated amount, in dollars' }),
    award_date: date('Action date'),
    description: maybeText('Award description'),
    url: maybeText('The award on usaspending.gov'),
  },
  { description: 'A federal contract award' },
);
export type ContractAwardedData = Static<typeof ContractAwardedSchema>;

export const WhaleFiledSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Beneficial-ownership filing id' }),
    accession_number: text('SEC accession number'),
    form_type: text('SC 13D, SC 13G, SC 13D/A, SC 13G/A'),
    filer_name: text('Beneficial owner'),
    issuer_name: text('Company'),
    ticker: maybeText('Issuer ticker'),
    cusip: maybeText('CUSIP of the class'),
    percent_of_class: maybeNumber('Percent of the class owned'),
    shares: maybeNumber('Shares owned'),
    position_value: maybeNumber('shares × latest close, in dollars'),
    event_date: maybeDate('Date of the event that required the filing'),
    filed_date: date('Filing date'),
    url: text('The filing on EDGAR'),
  },
  { description: 'A Schedule 13D or 13G (5%+ holder) filing' },
);
export type WhaleFiledData = Static<typeof WhaleFiledSchema>;

export const INSIDER_FILED_EXAMPLE: InsiderFiledData = {
  id: 90211,
  accession_number: '0001197649-24-000112',
  insider_name: 'Jen-Hsun Huang',
  insider_title: 'President and CEO',
  issuer_name: 'NVIDIA Corporation',
  issuer_cik: '0001045810',
  ticker: 'NVDA',
  transaction_type: 'Sale',
  transaction_code: 'S',
  transaction_date: '2024-12-18',
  filed_date: '2024-12-20',
  shares: 120000,
  price_per_share: 128.91,
  total_value: 15469200,
  shares_owned_after: 75500000,
  has_politician_overlap: true,
  overlapping_politicians: ['nancy-pelosi'],
  url: 'https://www.sec.gov/Archives/edgar/data/1045810/000119764924000112/',
};

export const LOBBYING_FILED_EXAMPLE: LobbyingFiledData = {
  id: 5120,
  filing_uuid: '4c8a1f0e-2b7d-4d2e-9a51-0f3c6b9d2e11',
  registrant_name: 'Akin Gump Strauss Hauer & Feld',
  client_name: 'NVIDIA Corporation',
  ticker: 'NVDA',
  amount: 120000,
  filing_period: 'fourth_quarter',
  filing_year: 2024,
  filing_type: 'Q4',
  issues: ['TRD', 'CPT'],
  filed_date: '2025-01-21',
  url: 'https://lda.senate.gov/filings/public/filing/4c8a1f0e-2b7d-4d2e-9a51-0f3c6b9d2e11/print/',
};

export const CONTRACT_AWARDED_EXAMPLE: ContractAwardedData = {
  id: 7734,
  award_id: 'FA862124C6001',
  recipient_name: 'Lockheed Martin Corporation',
  ticker: 'LMT',
  awarding_agency: 'Department of Defense',
  awarding_sub_agency: 'Department of the Air Force',
  amount: 98500000,
  award_date: '2025-01-10',
  description: 'F-16 sustainment',
  url: 'https://www.usaspending.gov/award/CONT_AWD_FA862124C6001_9700_-NONE-_-NONE-',
};

export const WHALE_FILED_EXAMPLE: WhaleFiledData = {
  id: 2210,
  accession_number: '0000950170-25-004512',
  form_type: 'SC 13G',
  filer_name: 'The Vanguard Group',
  issuer_name: 'NVIDIA Corporation',
  ticker: 'NVDA',
  cusip: '67066G104',
  percent_of_class: 8.27,
  shares: 2025000000,
  position_value: 272160000000,
  event_date: '2024-12-31',
  filed_date: '2025-02-13',
  url: 'https://www.sec.gov/Archives/edgar/data/1045810/000095017025004512/',
};
