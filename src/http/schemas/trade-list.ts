// The trade list every trade-list route answers (/trades, a member's, a ticker's, the feed) and
// the transaction-date range and change cursor those lists take: one source for validation,
// serialization and OpenAPI (the Trade resource itself is in resources/trade.ts).
import { Type } from 'typebox';
import { TRADE_EXAMPLE, TradeSchema } from '../../resources/trade.js';
import { IsoDate } from './common.js';

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

export const TradeList = Type.Array(TradeSchema, { examples: [[TRADE_EXAMPLE]] });
