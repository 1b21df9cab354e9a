// The range an analytics answer (GET /clusters/recent, GET /legislation/suspicious-timing) echoes
// back in its `parameters`: what it was computed over.
import { Type } from 'typebox';
import { Nullable } from './schema.js';

export const RangeEchoSchema = Type.Object({
  date_from: Type.String(),
  date_to: Type.String(),
  date_field: Type.String({ description: 'The trade date the range is over: transaction_date' }),
  chamber: Nullable(Type.Array(Type.String())),
  ticker: Nullable(Type.Array(Type.String())),
  trade_type: Nullable(Type.Array(Type.String())),
});
