// GET /v1/semantic-search
import { Type } from 'typebox';
import { invalidField, quoted } from '../../../errors.js';
import {
  SEARCH_MODES,
  SEMANTIC_TYPES,
  type SearchMode,
  SemanticSearch,
  type SemanticType,
} from '../../../search/semantic.js';
import { splitList } from '../../../services/trade-params.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const RankPart = (field: string, description: string) =>
  Type.Union([Type.Object({ rank: Type.Integer(), [field]: Type.Number() }), Type.Null()], { description });

const Result = Type.Object({
  type: Type.String({ description: SEMANTIC_TYPES.join(', ') }),
  key: Type.String({
    description: 'Stable identity of the record (trade:<source>:<source_key>, ticker:NVDA, ...)',
  }),
  title: Type.String(),
  subtitle: Type.String(),
  score: Type.Number({
    description:
      'Fused relevance relative to the best result (1), with a little for more matching trades inside',
  }),
  score_parts: Type.Object(
    {
      lexical: RankPart(
        'score',
        'Full-text rank and engine score (FTS5 bm25 / ts_rank_cd); null when not found',
      ),
      vector: RankPart('similarity', 'Embedding rank and cosine similarity; null when not among the nearest'),
      concept: Type.Optional(
        Type.Union([Type.Object({ rank: Type.Integer() }), Type.Null()], {
          description: "Rank among the companies of the question's concepts, most traded by members first",
        }),
      ),
      fuzzy: Type.Optional(
        Type.Union([Type.Object({ rank: Type.Integer(), edits: Type.Integer() }), Type.Null()], {
          description: 'Rank among the names the question misspells, and the letters changed',
        }),
      ),
      trades: Type.Optional(
        Type.Union([Type.Object({ rank: Type.Integer(), trade_count: Type.Integer() }), Type.Null()], {
          description:
            "Rank among the members whose trades fit the question's period, chamber, direction and stocks, and how many trades fit",
        }),
      ),
      fused: Type.Number({ description: 'Reciprocal rank fusion: sum of 1/(60 + rank)' }),
    },
    { description: 'What each retriever contributed' },
  ),
  matched_terms: Type.Array(Type.String(), { description: 'Words of the question the record contains' }),
  why: Type.String({ description: 'Why it matched, in words' }),
  politician_id: Type.Optional(Type.Integer()),
  slug: Type.Optional(Type.String()),
  ticker: Type.Optional(Type.String()),
  trade_id: Type.Optional(Type.Integer()),
  bill_id: Type.Optional(Type.String()),
  filing_id: Type.Optional(Type.Integer()),
  insider_trade_id: Type.Optional(Type.Integer()),
  whale_position_id: Type.Optional(Type.Integer()),
  lobbying_filing_id: Type.Optional(Type.Integer()),
  contract_award_id: Type.Optional(Type.Integer()),
  evidence: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.String(),
        key: Type.String(),
        title: Type.String(),
        subtitle: Type.String(),
        trade_id: Type.Optional(Type.Integer()),
        ticker: Type.Optional(Type.String()),
        slug: Type.Optional(Type.String()),
      }),
      {
        description:
          "The matching trades grouped inside this result (a member's or a company's), best first, at most 5",
      },
    ),
  ),
  evidence_count: Type.Optional(Type.Integer({ description: 'How many matching trades the result holds' })),
});

const Answer = Type.Object(
  {
    query: Type.String(),
    mode: Type.String({ description: 'hybrid, lexical or vector' }),
    terms: Type.Array(Type.Object({ term: Type.String(), weight: Type.Number() }), {
      description: 'The words of the question the full-text engine searched (stop words dropped)',
    }),
    concepts: Type.Optional(
      Type.Array(
        Type.Object({ id: Type.String(), phrase: Type.String(), vocabulary_version: Type.Integer() }),
        {
          description:
            "The field's phrases the question holds, resolved through the taxonomy (docs/search.md)",
        },
      ),
    ),
    corrections: Type.Optional(
      Type.Array(
        Type.Object({
          key: Type.String(),
          matched: Type.Array(
            Type.Object({ term: Type.String(), name: Type.String(), edits: Type.Integer() }),
          ),
        }),
        { description: 'Members and companies whose names the question seems to misspell' },
      ),
    ),
    retrieval: Type.Object(
      {
        lexical: Type.String({ description: 'sqlite-fts5 or postgresql-tsvector' }),
        vector_index: Type.String({
          description:
            'sqlite-vec (KNN), memory-ivf (the in-memory inverted-file index of a large corpus) or exact-scan',
        }),
        model: Type.Union([Type.String(), Type.Null()], { description: 'The embedding model' }),
        provider: Type.Union([Type.String(), Type.Null()], { description: 'lsa, openai or voyage' }),
        fusion: Type.String(),
      },
      { description: 'How the answer was retrieved' },
    ),
    results: Type.Array(Result),
    total: Type.Integer(),
  },
  {
    examples: [
      {
        query: 'defense contractor stock bought by senators',
        mode: 'hybrid',
        terms: [
          { term: 'defense', weight: 1 },
          { term: 'contractor', weight: 1 },
        ],
        retrieval: {
          lexical: 'sqlite-fts5',
          vector_index: 'sqlite-vec',
          model: 'lsa-128d-20260601T120000',
          provider: 'lsa',
          fusion: 'reciprocal rank fusion, k=60',
        },
        results: [
          {
            type: 'tickers',
            key: 'ticker:LMT',
            title: 'LMT',
            subtitle: 'Lockheed Martin Corporation',
            score: 1,
            score_parts: {
              lexical: { rank: 1, score: 12.5 },
              vector: { rank: 2, similarity: 0.71 },
              fused: 0.0325,
            },
            matched_terms: ['defense'],
            why: 'full-text rank 1: contains "defense"; embedding rank 2: cosine similarity 0.710',
            ticker: 'LMT',
          },
        ],
        total: 1,
      },
    ],
  },
);

export function semanticSearchRoute(app: App, deps: AppDeps): void {
  const engine = deps.semanticSearch ?? new SemanticSearch(deps.db);
  app.get(
    '/v1/semantic-search',
    {
      schema: {
        operationId: 'semanticSearch',
        tags: ['search'],
        summary: 'Search members, stocks, trades and bills with a free-text question',
        description:
          'Hybrid retrieval over members, stocks, trades, bills, filings, insider trades, 13D/G positions, lobbying filings ' +
          "and contract awards: the database's full-text engine and text embeddings (by default a latent semantic model " +
          'trained on this corpus; an OpenAI-compatible or Voyage model when configured), fused by reciprocal rank fusion. ' +
          'Each result carries its score parts and why it matched. `mode=lexical` or `mode=vector` runs one retriever alone.',
        querystring: Type.Object({
          q: Type.String({ minLength: 2, maxLength: 300, description: 'The question' }),
          types: Type.Optional(
            Type.String({
              maxLength: 100,
              description: `Comma list of ${SEMANTIC_TYPES.join(', ')} (default all). Among them, a question that names a kind of record ("bill", "lobbying", "contracts") is answered with that kind, and one that asks for people ("who", "members", "senators") with members`,
            }),
          ),
          mode: Type.Optional(
            Type.Union(
              SEARCH_MODES.map((mode) => Type.Literal(mode)),
              { description: 'hybrid (default), lexical (full text only) or vector (embeddings only)' },
            ),
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
              throw invalidField('types', `${quoted(type)} is not one of ${SEMANTIC_TYPES.join(', ')}`);
            }
            return type as SemanticType;
          })
        : SEMANTIC_TYPES;
      const mode: SearchMode = request.query.mode ?? 'hybrid';
      return engine.search({ q: q.trim(), types, limit, mode }, deps.clock());
    },
  );
}
