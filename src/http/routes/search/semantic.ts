// GET /v1/semantic-search
import { Type } from 'typebox';
import { invalidField } from '../../../errors.js';
import { SEMANTIC_TYPES, SemanticSearch, type SemanticType } from '../../../search/semantic.js';
import { splitList } from '../../../services/trade-params.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const Result = Type.Object({
  type: Type.String({ description: 'politicians, tickers, trades or bills' }),
  title: Type.String(),
  subtitle: Type.String(),
  score: Type.Number({ description: 'Relevance relative to the best result (1)' }),
  matched_terms: Type.Array(Type.String()),
  politician_id: Type.Optional(Type.Integer()),
  slug: Type.Optional(Type.String()),
  ticker: Type.Optional(Type.String()),
  trade_id: Type.Optional(Type.Integer()),
  bill_id: Type.Optional(Type.String()),
});

const Answer = Type.Object(
  {
    query: Type.String(),
    terms: Type.Array(Type.Object({ term: Type.String(), weight: Type.Number() }), {
      description: 'The question as searched: its own terms (weight 1) and related ones (weight 0.4)',
    }),
    results: Type.Array(Result),
    total: Type.Integer(),
  },
  {
    examples: [
      {
        query: 'defense contractor stock bought by senators',
        terms: [
          { term: 'defense', weight: 1 },
          { term: 'lockheed', weight: 0.4 },
        ],
        results: [
          {
            type: 'tickers',
            title: 'LMT',
            subtitle: 'Lockheed Martin Corporation',
            score: 1,
            matched_terms: ['lockheed'],
            ticker: 'LMT',
          },
        ],
        total: 1,
      },
    ],
  },
);

export function semanticSearchRoute(app: App, deps: AppDeps): void {
  const engine = new SemanticSearch(deps.db);
  app.get(
    '/v1/semantic-search',
    {
      schema: {
        operationId: 'semanticSearch',
        tags: ['search'],
        summary: 'Search members, stocks, trades and bills with a free-text question',
        description:
          'Ranks every member, traded stock, trade and bill by how well its text answers the question (BM25), with related ' +
          'words added at lower weight (e.g. "defense" also looks for aerospace, Lockheed, Raytheon). Lexical, not neural: ' +
          'see `terms` for what was searched.',
        querystring: Type.Object({
          q: Type.String({ minLength: 2, maxLength: 300, description: 'The question' }),
          types: Type.Optional(
            Type.String({
              maxLength: 100,
              description: 'Comma list of politicians, tickers, trades, bills (default all)',
            }),
          ),
          limit: Type.Integer({
            minimum: 1,
            maximum: 50,
            default: 10,
            description: 'Results, 1-50 (default 10)',
          }),
        }),
        response: { 200: Answer, ...errorResponses(400, 422) },
      },
    },
    async (request) => {
      const { q, limit } = request.query;
      if (q.trim().length < 2) throw invalidField('q', 'must contain at least 2 characters of text');
      const types = request.query.types
        ? splitList('types', request.query.types).map((type) => {
            if (!(SEMANTIC_TYPES as readonly string[]).includes(type)) {
              throw invalidField('types', `"${type}" is not one of ${SEMANTIC_TYPES.join(', ')}`);
            }
            return type as SemanticType;
          })
        : SEMANTIC_TYPES;
      return engine.search({ q: q.trim(), types, limit }, deps.clock().getTime());
    },
  );
}
