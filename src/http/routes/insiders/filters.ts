// The filters, sorts and paging GET /insiders/trades and GET /tickers/{ticker}/insiders both take.
import { Type } from 'typebox';
import { INSIDER_SORT_COLUMNS } from '../../../storage/repositories/sec.js';
import { IsoDate, Limit, Offset, SortDir, StringEnum } from '../../schemas/common.js';

export const InsiderFilterFields = {
  cik: Type.Optional(
    Type.String({ maxLength: 10, description: 'Issuer or reporting owner CIK (leading zeros optional)' }),
  ),
  insider_name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Reporting owner name contains this (case-insensitive)',
    }),
  ),
  code: Type.Optional(
    Type.String({ maxLength: 60, description: 'Transaction codes, comma-separated (P,S,A,M,F,G,X,...)' }),
  ),
  date_from: Type.Optional({ ...IsoDate, description: 'First transaction date' }),
  date_to: Type.Optional({ ...IsoDate, description: 'Last transaction date' }),
  min_value: Type.Optional(Type.Number({ minimum: 0, description: 'Smallest shares × price, in dollars' })),
  has_politician_overlap: Type.Optional(
    Type.Boolean({
      description: 'Only lines a member traded the same ticker within ±30 days of (true) or not (false)',
    }),
  ),
  limit: Limit(50, 1000),
  offset: Offset,
  sort_by: Type.Optional(
    StringEnum(INSIDER_SORT_COLUMNS, { description: 'Sort column (default transaction_date)' }),
  ),
  sort_dir: Type.Optional(SortDir),
};
