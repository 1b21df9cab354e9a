// GET /whales
import { listWhales } from '../../../services/whales.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { WhaleList, WhaleQuery } from './schema.js';

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
        response: { 200: WhaleList, ...errorResponses(400, 422) },
      },
    },
    async (request) => listWhales(deps.db, request.query),
  );
}
