// GET /lobbying: Senate LDA filings (LD-1 registrations, LD-2 reports), their clients matched
// to tickers.
import { Type } from 'typebox';
import { LOBBYING_EXAMPLE, LobbyingSchema } from '../../../resources/lobbying.js';
import { listLobbying, listLobbyingJson } from '../../../services/lobbying.js';
import { sendDatabaseJsonOrObjects } from '../../plugins/metering.js';
import { errorResponses, Limit, Offset, SortDir } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const text = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const LobbyingQuery = Type.Object({
  client: Type.Optional(text('Client name contains (case-insensitive)')),
  registrant: Type.Optional(text('Registrant (lobbying firm) name contains (case-insensitive)')),
  ticker: Type.Optional(text("Client's ticker, or comma-separated tickers")),
  issue_code: Type.Optional(text('LDA general issue code (TAX, DEF, HCR ...), or comma-separated codes')),
  year: Type.Optional(Type.Integer({ minimum: 1995, maximum: 2100, description: 'Filing year' })),
  period: Type.Optional(
    Type.String({
      description: 'first_quarter, second_quarter, third_quarter, fourth_quarter, mid_year or year_end',
    }),
  ),
  min_amount: Type.Optional(
    Type.Number({ minimum: 0, description: 'Least income/expenses reported, in dollars' }),
  ),
  limit: Limit(25, 1000),
  offset: Offset,
  sort_dir: Type.Optional(SortDir),
});

export function listLobbyingRoute(app: App, deps: AppDeps): void {
  app.get(
    '/lobbying',
    {
      schema: {
        operationId: 'listLobbying',
        tags: ['lobbying'],
        summary: 'Federal lobbying filings (Senate LDA)',
        description:
          'Newest posted first (`sort_dir=asc` for oldest). Filters combine with AND; comma lists with OR. `ticker` ' +
          'finds filings whose client was matched to that company (see `ticker_match`); unmatched clients have ticker null. ' +
          'Page with `offset` until a page is shorter than `limit`.',
        querystring: LobbyingQuery,
        response: {
          200: Type.Array(LobbyingSchema, { examples: [[LOBBYING_EXAMPLE]] }),
          ...errorResponses(400, 422),
        },
      },
    },
    // JSON answers: the page as the JSON text the database builds (as GET /trades sends its page).
    async (request, reply) =>
      sendDatabaseJsonOrObjects(
        deps,
        request,
        reply,
        () => listLobbyingJson(deps.db, request.query),
        () => listLobbying(deps.db, request.query),
      ),
  );
}
