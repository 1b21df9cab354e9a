// GET /whales
import { Type } from 'typebox';
import { WHALE_EXAMPLE, WhaleSchema } from '../../../resources/whale.js';
import { listWhales } from '../../../services/whales.js';
import { WHALE_SORT_COLUMNS } from '../../../storage/repositories/sec.js';
import { errorResponses, IsoDate, Limit, Offset, SortDir, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const WhaleQuery = Type.Object({
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

export function listWhalesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/whales',
    {
      schema: {
        operationId: 'listWhales',
        tags: ['whales'],
        summary: 'Schedule 13D/13G beneficial-ownership statements (5%+ holders)',
        description:
          'One row per statement, led by its largest reporting person (`persons` lists all), newest filing first by ' +
          'default. The ticker comes from the company identity table (the CUSIP or CIK the statement names).',
        querystring: WhaleQuery,
        response: {
          200: Type.Array(WhaleSchema, { examples: [[WHALE_EXAMPLE]] }),
          ...errorResponses(400, 422),
        },
      },
    },
    async (request) => listWhales(deps.db, request.query),
  );
}
