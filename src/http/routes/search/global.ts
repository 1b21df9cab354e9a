// GET /search: politicians, tickers and bills by name.
import { Type } from 'typebox';
import { invalidField, quoted } from '../../../errors.js';
import { globalSearch, SEARCH_TYPES, type SearchType } from '../../../search/global.js';
import { splitList } from '../../../services/trade-params.js';
import { errorResponses, Nullable } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const Score = Type.Integer({ description: '100 exact, 80 prefix, 60 word prefix, 40 substring' });

const SearchResult = Type.Object(
  {
    query: Type.String(),
    politicians: Type.Array(
      Type.Object({
        politician_id: Type.Integer(),
        name: Type.String(),
        slug: Type.String(),
        party: Nullable(Type.String()),
        state: Nullable(Type.String()),
        chamber: Type.String(),
        trade_count: Type.Integer(),
        score: Score,
      }),
    ),
    tickers: Type.Array(
      Type.Object({
        ticker: Type.String(),
        company_name: Nullable(Type.String()),
        trade_count: Type.Integer(),
        score: Score,
      }),
    ),
    bills: Type.Array(
      Type.Object({
        bill_id: Type.String(),
        congress: Type.Integer(),
        bill_type: Type.String(),
        number: Type.Integer(),
        title: Type.String(),
        latest_action_date: Nullable(Type.String()),
        score: Score,
      }),
    ),
    total: Type.Integer(),
  },
  {
    examples: [
      {
        query: 'pelo',
        politicians: [
          {
            politician_id: 17,
            name: 'Nancy Pelosi',
            slug: 'nancy-pelosi',
            party: 'D',
            state: 'CA',
            chamber: 'House',
            trade_count: 42,
            score: 60,
          },
        ],
        tickers: [],
        bills: [],
        total: 1,
      },
    ],
  },
);

export function globalSearchRoute(app: App, deps: AppDeps): void {
  app.get(
    '/search',
    {
      schema: {
        operationId: 'search',
        tags: ['search'],
        summary: 'Global search across politicians, tickers and bills',
        description:
          'Matches member names and slugs, ticker symbols and company names, bill numbers ("hr 21") and titles; ' +
          'each group is ranked by match quality (exact, prefix, word prefix, substring), then by activity.',
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 100, description: 'Text to look for' }),
          types: Type.Optional(
            Type.String({
              maxLength: 100,
              description: 'Comma list of politicians, tickers, bills (default all)',
            }),
          ),
          limit: Type.Integer({
            minimum: 1,
            maximum: 50,
            default: 10,
            description: 'Results per group, 1-50 (default 10)',
          }),
        }),
        response: { 200: SearchResult, ...errorResponses(400, 422) },
      },
    },
    async (request) => {
      const { q, limit } = request.query;
      if (q.trim() === '') throw invalidField('q', 'must contain text');
      const types = request.query.types
        ? splitList('types', request.query.types).map((type) => {
            if (!(SEARCH_TYPES as readonly string[]).includes(type)) {
              throw invalidField('types', `${quoted(type)} is not one of ${SEARCH_TYPES.join(', ')}`);
            }
            return type as SearchType;
          })
        : SEARCH_TYPES;
      return globalSearch(deps.db, { q, types, limit });
    },
  );
}
