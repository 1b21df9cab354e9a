// The /trades query and list: one source for validation, serialization and OpenAPI (the Trade
// resource itself is in resources/trade.ts).
import { type Static, Type } from 'typebox';
import { GICS_SECTORS } from '../../../domain/sectors.js';
import { TRADE_SORT_COLUMNS } from '../../../domain/sorts.js';
import { TRADE_EXAMPLE, TradeSchema } from '../../../resources/trade.js';
import { IsoDate, Limit, MemberIds, Offset, SortDir, StringEnum } from '../../schemas/common.js';

const list = (description: string, pattern?: string) =>
  Type.String({ minLength: 1, maxLength: 2000, description, ...(pattern ? { pattern } : {}) });

/** The transaction-date range and the change cursor, on every trade list where they make sense. */
export const SyncQuery = {
  transaction_date_from: Type.Optional({
    ...IsoDate,
    description:
      'First transaction date (inclusive). Sent without days or date_from/date_to, it replaces the default 30-day disclosure window',
  }),
  transaction_date_to: Type.Optional({
    ...IsoDate,
    description: 'Last transaction date (inclusive); same rule as transaction_date_from',
  }),
  updated_since: Type.Optional(
    Type.String({
      minLength: 10,
      maxLength: 40,
      description:
        'Only trades whose updated_at is at or after this ISO 8601 date or date-time (UTC unless a zone is given): new, amended and re-enriched trades. Sent without days or date_from/date_to, it replaces the default 30-day window, and it includes the trades an amendment replaced. Sync with sort_by=updated_at&sort_dir=asc and pass the largest updated_at you hold (minus a minute, deduplicating by id)',
    }),
  ),
};

export const TradeListQuery = Type.Object({
  ticker: Type.Optional(list('Ticker or comma-separated tickers (case-insensitive)')),
  politician_id: Type.Optional(MemberIds),
  party: Type.Optional(list('D, R or I; comma-separated for several')),
  chamber: Type.Optional(list('house, senate or executive; comma-separated for several')),
  state: Type.Optional(list('Two-letter state code; comma-separated for several')),
  trade_type: Type.Optional(
    list(
      'buy, sell (matches Sell and Sell (Partial)), exchange, exercise or expired; comma-separated. Excludes N/A tickers',
    ),
  ),
  asset_type: Type.Optional(list('Stock, Option, ...; comma-separated. Excludes N/A tickers')),
  sector: Type.Optional(
    list(
      `GICS sector, case-insensitive, comma-separated: ${GICS_SECTORS.join(', ')} (also Technology, Finance, Healthcare ...). Excludes N/A tickers`,
    ),
  ),
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 3650,
      description: 'Look back from today by disclosure date (default 30)',
    }),
  ),
  date_from: Type.Optional({
    ...IsoDate,
    description: 'First disclosure date; requires date_to; replaces days',
  }),
  date_to: Type.Optional({
    ...IsoDate,
    description: 'Last disclosure date; requires date_from; replaces days',
  }),
  limit: Limit(25, 1000),
  offset: Offset,
  sort_by: Type.Optional(
    StringEnum(TRADE_SORT_COLUMNS, {
      description: `One of ${TRADE_SORT_COLUMNS.join(', ')} (default disclosure_date)`,
    }),
  ),
  sort_dir: Type.Optional(SortDir),
  include_superseded: Type.Optional(
    Type.Boolean({
      description:
        'true: also list trades an amendment replaced (history); each says in `superseded_by` which trade replaced it. Default false (true with updated_since)',
    }),
  ),
  ...SyncQuery,
  include_flagged: Type.Optional(
    Type.Boolean({
      description:
        'true: also list trades whose `quality_flags` leave them out of statistics (a transaction date after the disclosure or out of range, an amount that is no bracket; docs/data-quality.md). Default false',
    }),
  ),
});
export type TradeListQuery = Static<typeof TradeListQuery>;

export const TradeList = Type.Array(TradeSchema, { examples: [[TRADE_EXAMPLE]] });
