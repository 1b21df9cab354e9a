// 13D/13G list and item: the resource schema lives in src/resources/whale.ts (the webhook event
// carries the same); the query schema is here.
import { type Static, Type } from 'typebox';
import { WhaleSchema } from '../../../resources/whale.js';
import { WHALE_SORT_COLUMNS } from '../../../storage/repositories/sec.js';
import { WHALE_FILED_EXAMPLE } from '../../../webhooks/event-catalog.js';
import { IsoDate, Limit, Offset, SortDir, StringEnum } from '../../schemas/common.js';

export const Whale = Type.Unsafe<Static<typeof WhaleSchema>>({
  ...WhaleSchema,
  examples: [WHALE_FILED_EXAMPLE],
});
export const WhaleList = Type.Array(WhaleSchema, { examples: [[WHALE_FILED_EXAMPLE]] });

export const WhaleQuery = Type.Object({
  ticker: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Issuer ticker' })),
  filer: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: "A reporting person's name contains this" }),
  ),
  form: Type.Optional(
    Type.String({
      maxLength: 60,
      description: 'SC 13D, SC 13G (each with its amendments), SC 13D/A, SC 13G/A; comma-separated',
    }),
  ),
  min_percent: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, description: 'Smallest percent of class' }),
  ),
  date_from: Type.Optional({ ...IsoDate, description: 'First filed date' }),
  date_to: Type.Optional({ ...IsoDate, description: 'Last filed date' }),
  limit: Limit(50, 1000),
  offset: Offset,
  sort_by: Type.Optional(StringEnum(WHALE_SORT_COLUMNS, { description: 'Sort column (default filed_date)' })),
  sort_dir: Type.Optional(SortDir),
});
