// The insider-trade resource (one Form 3/4/5 transaction line): what GET /insiders/trades serves
// and what an insider.filed event carries as `data`, built by one mapper from the stored row.
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import { pick } from '../domain/pick.js';
import type { ListOrder } from '../storage/list-order.js';
import type { InsiderJsonTerms } from '../storage/repositories/insider-trades-json.js';
import {
  findInsiderTrades,
  type InsiderSortColumn,
  type InsiderTradeFilter,
  overlappingMemberTrades,
} from '../storage/repositories/sec.js';
import type { InsiderTradesTable } from '../storage/schema/records.js';
import type { Database } from '../storage/schema.js';
import {
  EDGAR_ARCHIVES_URL,
  edgarFilingUrl,
  maybeDate,
  maybeNumber,
  maybeText,
  text,
} from './schema-helpers.js';

/** Members' trades are compared within this many days either side of the insider's transaction. */
export const OVERLAP_WINDOW_DAYS = 30;

/** Form 4 transaction codes (General Instructions 8) as words. */
export const TRANSACTION_TYPES: Readonly<Record<string, string>> = {
  P: 'Purchase',
  S: 'Sale',
  A: 'Grant',
  D: 'Disposition to issuer',
  F: 'Tax withholding',
  I: 'Discretionary',
  M: 'Exercise',
  C: 'Conversion',
  E: 'Expiration (short)',
  H: 'Expiration (long)',
  O: 'Exercise (out of the money)',
  X: 'Exercise',
  G: 'Gift',
  L: 'Small acquisition',
  W: 'Will or inheritance',
  Z: 'Voting trust',
  J: 'Other',
  K: 'Equity swap',
  U: 'Tender of shares',
  V: 'Voluntarily reported',
};

/** The word of a code outside TRANSACTION_TYPES. */
const OTHER_TRANSACTION = 'Other';

export function transactionType(code: string | null): string {
  return (code ? TRANSACTION_TYPES[code] : undefined) ?? OTHER_TRANSACTION;
}

/** What the page the database writes (storage/repositories/insider-trades-json.ts) takes from here. */
export const INSIDER_JSON_TERMS: InsiderJsonTerms = {
  transactionTypes: TRANSACTION_TYPES,
  other: OTHER_TRANSACTION,
  archivesUrl: EDGAR_ARCHIVES_URL,
};

export const OverlapTradeSchema = Type.Object({
  id: Type.Integer({ description: 'Trade id (GET /trades/{id} in /trades lists)' }),
  politician_slug: text('Member'),
  politician_name: text('Member name'),
  trade_type: text('Buy, Sell, Sell (Partial), Exchange, ...'),
  transaction_date: text('YYYY-MM-DD'),
  disclosure_date: maybeDate('When the member disclosed it'),
  days_apart: Type.Integer({ description: "Member's date minus the insider's date, in days" }),
});
export type OverlapTrade = Static<typeof OverlapTradeSchema>;

export const InsiderTradeSchema = Type.Object(
  {
    id: Type.Integer({ description: 'Insider transaction id' }),
    accession_number: text('SEC accession number of the filing'),
    line: Type.Integer({
      description: 'Row of the filing (non-derivative rows first, then derivative rows)',
    }),
    form: text('4, 4/A, 3, 5, 5/A'),
    insider_name: text('Reporting owner'),
    insider_cik: maybeText('Reporting owner CIK'),
    insider_title: maybeText('Officer title or relationship (Director, 10% owner, ...)'),
    is_director: Type.Boolean(),
    is_officer: Type.Boolean(),
    is_ten_percent_owner: Type.Boolean(),
    issuer_name: text('Company'),
    issuer_cik: maybeText('Company CIK'),
    ticker: maybeText('Issuer ticker'),
    security: maybeText('Title of the security'),
    table: text('non_derivative or derivative'),
    transaction_type: text('Purchase, Sale, Grant, Exercise, Gift, ...'),
    transaction_code: text('Form 4 transaction code (P, S, A, M, G, ...)'),
    transaction_date: maybeDate('Transaction date'),
    filed_date: maybeDate('Filing date'),
    shares: maybeNumber('Shares in the transaction'),
    price_per_share: maybeNumber('Price per share'),
    total_value: maybeNumber('shares × price_per_share'),
    acquired_disposed: maybeText('A (acquired) or D (disposed)'),
    shares_owned_after: maybeNumber('Shares held after the transaction'),
    direct_indirect: maybeText('D (direct) or I (indirect)'),
    ten_b5_1: Type.Boolean({ description: 'Made under a Rule 10b5-1 plan, as the filing says' }),
    footnotes: Type.Array(Type.String(), { description: "Texts of the footnotes on the row's values" }),
    has_politician_overlap: Type.Boolean({
      description: `A member traded this ticker within ${OVERLAP_WINDOW_DAYS} days of the transaction`,
    }),
    overlapping_politicians: Type.Array(Type.String(), { description: 'Slugs of those members' }),
    politician_trades: Type.Array(OverlapTradeSchema, { description: 'The overlapping member trades' }),
    url: text('The filing on EDGAR'),
  },
  { description: 'A Form 3/4/5 insider transaction' },
);
export type InsiderTrade = Static<typeof InsiderTradeSchema>;

/** The example /openapi.json shows and the insider.filed event's catalog entry sends. */
export const INSIDER_TRADE_EXAMPLE: InsiderTrade = {
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

export type InsiderTradeRow = Omit<InsiderTradesTable, 'id'> & { id: number };

export function toInsiderTrade(row: InsiderTradeRow, overlaps: readonly OverlapTrade[]): InsiderTrade {
  const slugs = [...new Set(overlaps.map((trade) => trade.politician_slug))];
  // Object.assign, not a literal that starts with a spread: V8 builds such a literal slowly
  // (tens of microseconds a row) when properties follow the spread (BENCHMARKS.md).
  return Object.assign(
    pick(row, ['id', 'accession_number', 'line', 'form', 'insider_name', 'insider_cik', 'insider_title']),
    {
      is_director: row.is_director === 1,
      is_officer: row.is_officer === 1,
      is_ten_percent_owner: row.is_ten_percent_owner === 1,
      issuer_name: row.issuer_name ?? '',
      issuer_cik: row.issuer_cik,
      ticker: row.ticker,
      security: row.security,
      table: row.table_kind,
      transaction_type: transactionType(row.code),
      transaction_code: row.code ?? '',
      transaction_date: row.transaction_date,
      filed_date: row.filed_date,
      shares: row.shares,
      price_per_share: row.price,
      total_value: row.total_value,
      acquired_disposed: row.acquired_disposed,
      shares_owned_after: row.shares_after,
      direct_indirect: row.direct_indirect,
      ten_b5_1: row.ten_b5_1 === 1,
      footnotes: JSON.parse(row.footnotes) as string[],
      has_politician_overlap: overlaps.length > 0,
      overlapping_politicians: slugs,
      politician_trades: [...overlaps],
      url: edgarFilingUrl(row.issuer_cik, row.accession_number),
    },
  );
}

/** A relationship in words: the officer title, else Director / 10% owner / Other. */
export function insiderTitle(owner: {
  officer_title: string | null;
  is_director: boolean;
  is_ten_percent_owner: boolean;
  is_other: boolean;
  other_text: string | null;
}): string | null {
  if (owner.officer_title) return owner.officer_title;
  const roles = [
    owner.is_director ? 'Director' : null,
    owner.is_ten_percent_owner ? '10% owner' : null,
    owner.is_other ? (owner.other_text ?? 'Other') : null,
  ].filter((role): role is string => role !== null);
  return roles.length > 0 ? roles.join(', ') : null;
}

/** Stored lines as resources, with their members'-trade overlaps (REST answers and events alike). */
export async function loadInsiderTrades(
  db: Kysely<Database>,
  filter: InsiderTradeFilter,
  order: ListOrder<InsiderSortColumn>,
): Promise<InsiderTrade[]> {
  const rows = await findInsiderTrades(db, filter, order);
  const overlaps = await overlappingMemberTrades(db, rows);
  return rows.map((row) => toInsiderTrade(row, overlaps.get(row.id) ?? []));
}

export async function insiderTradesByIds(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<InsiderTrade[]> {
  if (ids.length === 0) return [];
  return loadInsiderTrades(db, { ids }, { column: 'id', direction: 'asc', limit: ids.length, offset: 0 });
}
