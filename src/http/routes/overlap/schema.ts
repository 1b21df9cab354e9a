// The range the /overlap answer echoes (its evidence shapes are resources: resources/links.ts).
import { Type } from 'typebox';
import { Nullable } from '../../schemas/common.js';

export const RangeEchoSchema = {
  date_from: Type.String(),
  date_to: Type.String(),
  days: Nullable(Type.Integer()),
  chamber: Nullable(Type.String()),
  ticker: Nullable(Type.String()),
  trade_type: Nullable(Type.String()),
};
