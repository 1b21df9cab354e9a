// What `data` holds for each event type beyond trade.created (the Trade resource of GET /trades):
// insider.filed, whale.filed, lobbying.filed and contract.awarded carry exactly the src/resources/
// shapes their REST routes serve, and disclosure.detected adds index-time context to the Filing
// resource. These schemas are the contract: the catalog publishes them, the test endpoint sends
// their examples, and emitters build their data with the types derived here.
import { type Static, Type } from 'typebox';
import { CONTRACT_EXAMPLE, type ContractResource, ContractSchema } from '../resources/contract.js';
import { InsiderTradeSchema } from '../resources/insider.js';
import { LOBBYING_EXAMPLE, type LobbyingResource, LobbyingSchema } from '../resources/lobbying.js';
import { Nullable } from '../resources/schema.js';
import { WhaleSchema } from '../resources/whale.js';

const maybeText = (description: string) => Nullable(Type.String({ description }));
const maybeNumber = (description: string) => Nullable(Type.Number({ description }));

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
    description:
      'Tickers the document names, from a quick read of its text layer before the full parse (empty for scans and paper filings)',
  }),
  est_amount_high: maybeNumber(
    'Largest bracket upper bound the document prints (an open bracket counts as its lower bound), from the same quick read; null when none was read',
  ),
  is_high_signal: Type.Boolean({
    description:
      'est_amount_high is at least $1M, or the filer moved at least $1M (sum of bracket tops) in trades disclosed over the previous year',
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

// insider.filed and whale.filed carry the resources GET /insiders/trades and GET /whales serve.
export const InsiderFiledSchema = InsiderTradeSchema;
export type InsiderFiledData = Static<typeof InsiderFiledSchema>;

/** lobbying.filed: exactly the Lobbying resource of GET /lobbying/{id}. */
export const LobbyingFiledSchema = LobbyingSchema;
export type LobbyingFiledData = LobbyingResource;

/** contract.awarded: exactly the Contract resource of GET /contracts/{id}. */
export const ContractAwardedSchema = ContractSchema;
export type ContractAwardedData = ContractResource;

export const WhaleFiledSchema = WhaleSchema;
export type WhaleFiledData = Static<typeof WhaleFiledSchema>;

export const INSIDER_FILED_EXAMPLE: InsiderFiledData = {
  id: 90211,
  accession_number: '0001197649-24-000112',
  line: 1,
  form: '4',
  insider_name: 'Jen-Hsun Huang',
  insider_cik: '0001197649',
  insider_title: 'President and CEO',
  is_director: true,
  is_officer: true,
  is_ten_percent_owner: false,
  security: 'Common Stock',
  table: 'non_derivative',
  acquired_disposed: 'D',
  direct_indirect: 'D',
  ten_b5_1: true,
  footnotes: ['The sales reported in this Form 4 were effected pursuant to a Rule 10b5-1 trading plan.'],
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
  politician_trades: [
    {
      id: 48211,
      politician_slug: 'nancy-pelosi',
      politician_name: 'Nancy Pelosi',
      trade_type: 'Buy',
      transaction_date: '2024-12-20',
      disclosure_date: '2025-01-17',
      days_apart: 2,
    },
  ],
  url: 'https://www.sec.gov/Archives/edgar/data/1045810/000119764924000112/',
};

export const LOBBYING_FILED_EXAMPLE: LobbyingFiledData = LOBBYING_EXAMPLE;

export const CONTRACT_AWARDED_EXAMPLE: ContractAwardedData = CONTRACT_EXAMPLE;

export const WHALE_FILED_EXAMPLE: WhaleFiledData = {
  id: 2210,
  accession_number: '0000950170-25-004512',
  form_type: 'SC 13G',
  amendment_number: null,
  filer_name: 'The Vanguard Group',
  filer_cik: '0000102909',
  issuer_name: 'NVIDIA Corporation',
  issuer_cik: '0001045810',
  ticker: 'NVDA',
  cusip: '67066G104',
  percent_of_class: 8.27,
  shares: 2025000000,
  position_value: 272160000000,
  event_date: '2024-12-31',
  filed_date: '2025-02-13',
  persons: [
    {
      name: 'The Vanguard Group',
      cik: '0000102909',
      type: 'IA',
      sole_voting: 0,
      shared_voting: 28400000,
      sole_dispositive: 1950000000,
      shared_dispositive: 75000000,
      aggregate_amount: 2025000000,
      percent_of_class: 8.27,
    },
  ],
  url: 'https://www.sec.gov/Archives/edgar/data/1045810/000095017025004512/',
};
