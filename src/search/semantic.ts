// GET /v1/semantic-search: hybrid retrieval over members, stocks, trades, bills, filings, insider
// trades, 13D/G positions, lobbying filings and contract awards. Two retrievers read the same
// documents (storage/repositories/search-index.ts): the database's full-text engine (SQLite FTS5
// bm25 / PostgreSQL ts_rank_cd) and embedding vectors (sqlite-vec KNN, or an exact scan in memory
// where the database has no vector index). Their rankings are fused by reciprocal rank fusion;
// each result says which retriever found it, at which rank, and which words matched.
import type { Kysely } from 'kysely';
import {
  activateEmbeddingModel,
  activeEmbeddingModel,
  countDocumentsWithoutVector,
  countSearchDocuments,
  documentsWithoutVector,
  type FullTextQuery,
  fullTextDocumentCounts,
  fullTextEngine,
  fullTextSearch,
  nearestVectors,
  refreshSearchDocuments,
  SEARCH_KINDS,
  type SearchKind,
  sampleSearchTexts,
  searchDocumentsByIds,
  storeVectors,
  vectorsSince,
} from '../storage/repositories/search-index.js';
import type { Database } from '../storage/schema.js';
import { type Embedder, LsaEmbedder } from './embedders.js';
import { queryWords, tokenize } from './text.js';
import { ClusterIndex, nearestInTable } from './vector-scan.js';

export const SEMANTIC_TYPES = SEARCH_KINDS;
export type SemanticType = SearchKind;
export const SEARCH_MODES = ['hybrid', 'lexical', 'vector'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Reciprocal rank fusion's constant (Cormack, Clarke & Büttcher 2009): 1 / (60 + rank). */
export const RRF_K = 60;
/** How deep each retriever's ranking goes before fusion. */
const CANDIDATES = 100;
/** How long the index is trusted before new records are looked for again. */
const RECHECK_MS = 30_000;
/** Documents a remote provider embeds while a question waits (the rest: `dcledger search index`). */
export const REMOTE_EMBED_BUDGET = 256;
/** The LSA model is trained again once the corpus has grown this much since it was trained. */
const RETRAIN_GROWTH = 2;
const TRAINING_SAMPLE = 12_000;
/**
 * A word held by more than this share of the documents (and more than COMMON_FLOOR of them) is
 * common: it ranks the matches but does not make them, so "sold" or "stocks" in a question do not
 * pull most of the corpus into the ranking.
 */
const COMMON_SHARE = 0.05;
const COMMON_FLOOR = 2_000;
/**
 * Past this many vectors the in-memory inverted-file index is built (vector-scan.ts): about
 * √n lists (at most IVF_MAX_LISTS), of which a question scans the IVF_PROBE_SHARE nearest.
 */
const IVF_MIN_VECTORS = 20_000;
const IVF_MAX_LISTS = 256;
const IVF_PROBE_SHARE = 0.1;
const IVF_SAMPLE = 16_000;
const IVF_ITERATIONS = 6;
/** Words whose document counts are kept in memory at most. */
const TERM_COUNTS_KEPT = 50_000;
/** The most full-text matches ranked for one question (the first by id past it are not scored). */
const MATCH_CAP = 5_000;

/**
 * The full-text query for a question's words given how many documents hold each: the rare words
 * make the match set, every known word ranks it; with no rare word, documents must hold them all.
 * Pure.
 */
export function planFullText(
  words: readonly string[],
  documentCounts: ReadonlyMap<string, number>,
  commonAbove: number,
  cap: number = MATCH_CAP,
): FullTextQuery {
  const known = words.filter((word) => (documentCounts.get(word) ?? 0) > 0);
  const rare = known.filter((word) => (documentCounts.get(word) ?? 0) <= commonAbove);
  return { anyOf: rare, allOf: rare.length > 0 ? [] : known, rankBy: known, cap };
}

/** The reference fields a result carries, by kind (stored with the document). */
export interface SearchRefs {
  politician_id?: number;
  slug?: string;
  ticker?: string;
  trade_id?: number;
  bill_id?: string;
  filing_id?: number;
  insider_trade_id?: number;
  whale_position_id?: number;
  lobbying_filing_id?: number;
  contract_award_id?: number;
}

export interface ScoreParts {
  lexical: { rank: number; score: number } | null;
  vector: { rank: number; similarity: number } | null;
  fused: number;
}

export interface Ranked {
  id: number;
  parts: ScoreParts;
}

/**
 * Reciprocal rank fusion of ranked id lists: score = Σ 1/(k + rank), rank from 1. Pure; ties by
 * the better single rank, then id.
 */
export function fuseRankings(
  lexical: readonly { id: number; score: number }[],
  vector: readonly { id: number; similarity: number }[],
  k: number = RRF_K,
): Ranked[] {
  const byId = new Map<number, ScoreParts>();
  const entry = (id: number) => {
    let parts = byId.get(id);
    if (!parts) {
      parts = { lexical: null, vector: null, fused: 0 };
      byId.set(id, parts);
    }
    return parts;
  };
  lexical.forEach((hit, i) => {
    const parts = entry(hit.id);
    parts.lexical = { rank: i + 1, score: hit.score };
    parts.fused += 1 / (k + i + 1);
  });
  vector.forEach((hit, i) => {
    const parts = entry(hit.id);
    parts.vector = { rank: i + 1, similarity: hit.similarity };
    parts.fused += 1 / (k + i + 1);
  });
  const best = (parts: ScoreParts) =>
    Math.min(parts.lexical?.rank ?? Infinity, parts.vector?.rank ?? Infinity);
  return [...byId]
    .map(([id, parts]) => ({ id, parts }))
    .sort((a, b) => b.parts.fused - a.parts.fused || best(a.parts) - best(b.parts) || a.id - b.id);
}

/** Why a result matched, in a sentence. Pure. */
export function explainMatch(parts: ScoreParts, matched: readonly string[]): string {
  const reasons: string[] = [];
  if (parts.lexical) {
    reasons.push(
      matched.length > 0
        ? `full-text rank ${parts.lexical.rank}: contains ${matched.map((term) => `"${term}"`).join(', ')}`
        : `full-text rank ${parts.lexical.rank}`,
    );
  }
  if (parts.vector) {
    reasons.push(
      `embedding rank ${parts.vector.rank}: cosine similarity ${parts.vector.similarity.toFixed(3)}`,
    );
  }
  return reasons.join('; ');
}

export interface SearchOptions {
  /** A remote embeddings provider; without one the LSA model trained on the corpus is used. */
  embedder?: Embedder;
  onProgress?: (stage: string, done: number, total: number) => void;
}

/** What prepare() has built so far (logs and the serve warm-up read it). */
export interface SearchIndexState {
  /** When the index was last brought up to date, or null before the first prepare(). */
  preparedAt: Date | null;
  documents: number;
  model: string | null;
  /** Vectors held in memory for the scan (loaded once the index is prepared). */
  vectorsInMemory: number;
  /** Whether the in-memory inverted-file index is built (large corpora only). */
  memoryIndex: boolean;
}

/** In-memory vectors for the exact scan (databases without a KNN index). */
interface VectorCache {
  model: string;
  seq: number;
  dimensions: number;
  slots: Map<number, number>;
  ids: number[];
  kinds: string[];
  data: Float32Array;
  /** The inverted-file index over `data`, once built (large corpora only). */
  clusters: ClusterIndex | undefined;
}

export class SemanticSearch {
  private checkedAt = -Infinity;
  private preparing: Promise<void> | undefined;
  private indexing: Promise<void> | undefined;
  private embedder: Embedder | undefined;
  private cache: VectorCache | undefined;
  private vectorIndex: 'sqlite-vec' | 'exact-scan' | 'memory-ivf' = 'exact-scan';
  /** Documents per word (counted up to the common threshold), valid for `documents`. */
  private termCounts = new Map<string, number>();
  private documents = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: SearchOptions = {},
  ) {}

  /**
   * Brings the index up to date: new and changed records become documents, the embedding model is
   * chosen (trained on first use), and documents without a vector are embedded.
   */
  async prepare(now: Date, budget: number = Number.POSITIVE_INFINITY): Promise<void> {
    this.preparing ??= this.update(now, budget).finally(() => {
      this.preparing = undefined;
    });
    await this.preparing;
    this.checkedAt = now.getTime();
  }

  private async update(now: Date, budget: number): Promise<void> {
    const progress = this.options.onProgress;
    const refreshed = await refreshSearchDocuments(this.db, now, (source, done) =>
      progress?.(`documents:${source}`, done, done),
    );
    if (refreshed.indexed > 0 || refreshed.removed > 0 || this.documents === 0) {
      this.documents = await countSearchDocuments(this.db);
      this.termCounts = new Map();
    }
    const embedder = await this.chooseEmbedder(now);
    const total = await countDocumentsWithoutVector(this.db, embedder.model);
    let done = 0;
    const limit = embedder.provider === 'lsa' ? Number.POSITIVE_INFINITY : budget;
    while (done < Math.min(total, limit)) {
      const batch = await documentsWithoutVector(this.db, embedder.model, Math.min(500, limit - done));
      if (batch.length === 0) break;
      const vectors = await embedder.embed(
        batch.map((doc) => `${doc.title}. ${doc.body}`),
        'document',
      );
      await storeVectors(
        this.db,
        embedder.model,
        batch.map((doc, i) => ({ id: doc.id, kind: doc.kind, vector: vectors[i] ?? new Float32Array(0) })),
      );
      done += batch.length;
      progress?.('vectors', done, total);
    }
    // Built once per model; until then (or on a small corpus) search uses the other indexes.
    this.indexing ??= this.buildMemoryIndex(embedder)
      .catch((error: unknown) => {
        this.options.onProgress?.(
          `vector-index failed: ${error instanceof Error ? error.message : error}`,
          0,
          0,
        );
      })
      .finally(() => {
        if (!this.cache?.clusters) this.indexing = undefined;
      });
  }

  state(): SearchIndexState {
    return {
      preparedAt: Number.isFinite(this.checkedAt) ? new Date(this.checkedAt) : null,
      documents: this.documents,
      model: this.embedder?.model ?? null,
      vectorsInMemory: this.cache?.ids.length ?? 0,
      memoryIndex: this.cache?.clusters !== undefined,
    };
  }

  /** Resolves once the in-memory vector index prepare() started is built (at once if none). */
  async vectorIndexReady(): Promise<void> {
    await this.indexing;
  }

  private async chooseEmbedder(now: Date): Promise<Embedder> {
    const active = await activeEmbeddingModel(this.db);
    const remote = this.options.embedder;
    if (remote) {
      if (active?.model !== remote.model) {
        await activateEmbeddingModel(
          this.db,
          {
            model: remote.model,
            provider: remote.provider,
            dimensions: remote.dimensions,
            state: null,
            trained_on: 0,
          },
          now,
        );
      }
      this.embedder = remote;
      return remote;
    }
    const documents = await countSearchDocuments(this.db);
    const stale =
      active?.provider !== 'lsa' || !active.state || documents >= active.trained_on * RETRAIN_GROWTH;
    if (!stale && active?.state && this.embedder?.model === active.model) return this.embedder;
    if (!stale && active?.state) {
      this.embedder = LsaEmbedder.load(active.model, active.state);
      return this.embedder;
    }
    const texts = await sampleSearchTexts(this.db, TRAINING_SAMPLE);
    this.options.onProgress?.('training', 0, texts.length);
    const trained = LsaEmbedder.train(texts, now);
    await activateEmbeddingModel(
      this.db,
      {
        model: trained.model,
        provider: 'lsa',
        dimensions: trained.dimensions,
        state: trained.serialize(),
        trained_on: Math.max(1, documents),
      },
      now,
    );
    this.embedder = trained;
    this.cache = undefined;
    return trained;
  }

  async search(
    params: { q: string; types: readonly SemanticType[]; limit: number; mode?: SearchMode },
    now: Date = new Date(),
  ) {
    if (now.getTime() - this.checkedAt >= RECHECK_MS || !this.embedder)
      await this.prepare(now, REMOTE_EMBED_BUDGET);
    const mode = params.mode ?? 'hybrid';
    const words = queryWords(params.q);
    const depth = Math.max(CANDIDATES, params.limit);
    const lexical = mode === 'vector' ? [] : await this.fullText(words, params.types, depth);
    const vector = mode === 'lexical' ? [] : await this.nearest(params.q, params.types, depth);
    const fused = fuseRankings(lexical, vector);
    const documents = new Map(
      (
        await searchDocumentsByIds(
          this.db,
          fused.slice(0, params.limit * 2).map((hit) => hit.id),
        )
      ).map((doc) => [doc.id, doc]),
    );
    const queryTerms = new Map(words.map((word) => [tokenize(word)[0] ?? word, word]));
    const hits = fused.filter((hit) => documents.has(hit.id)).slice(0, params.limit);
    const top = hits[0]?.parts.fused ?? 1;
    return {
      query: params.q,
      mode,
      terms: words.map((term) => ({ term, weight: 1 })),
      retrieval: {
        lexical: fullTextEngine(this.db),
        vector_index: this.vectorIndex,
        model: this.embedder?.model ?? null,
        provider: this.embedder?.provider ?? null,
        fusion: `reciprocal rank fusion, k=${RRF_K}`,
      },
      results: hits.map((hit) => {
        const doc = documents.get(hit.id);
        if (!doc) throw new Error(`search document ${hit.id} vanished`);
        const docTerms = new Set(tokenize(`${doc.title} ${doc.body}`));
        const matched = [...queryTerms].filter(([stemmed]) => docTerms.has(stemmed)).map(([, word]) => word);
        return {
          type: doc.kind,
          key: doc.doc_key,
          title: doc.title,
          subtitle: doc.subtitle,
          score: Math.round((hit.parts.fused / top) * 1000) / 1000,
          score_parts: hit.parts,
          matched_terms: matched,
          why: explainMatch(hit.parts, matched),
          ...(JSON.parse(doc.refs) as SearchRefs),
        };
      }),
      total: hits.length,
    };
  }

  private async fullText(words: readonly string[], kinds: readonly string[], depth: number) {
    const commonAbove = Math.max(COMMON_FLOOR, Math.ceil(this.documents * COMMON_SHARE));
    // Kept until the index changes; a server asked many distinct words starts the cache afresh.
    if (this.termCounts.size > TERM_COUNTS_KEPT) this.termCounts = new Map();
    const unknown = words.filter((word) => !this.termCounts.has(word));
    if (unknown.length > 0) {
      const counted = await fullTextDocumentCounts(this.db, unknown, commonAbove);
      for (const [word, n] of counted) this.termCounts.set(word, n);
    }
    return fullTextSearch(this.db, planFullText(words, this.termCounts, commonAbove), kinds, depth);
  }

  private async nearest(q: string, kinds: readonly string[], k: number) {
    const embedder = this.embedder;
    if (!embedder) return [];
    const [query] = await embedder.embed([q], 'query');
    if (!query || query.every((x) => x === 0)) return [];
    const clusters = this.cache?.model === embedder.model ? this.cache.clusters : undefined;
    if (clusters) {
      this.vectorIndex = 'memory-ivf';
      return this.scan(embedder, query, new Set(kinds), k);
    }
    const indexed = await nearestVectors(this.db, query, kinds, k);
    if (indexed) {
      this.vectorIndex = 'sqlite-vec';
      return indexed;
    }
    this.vectorIndex = 'exact-scan';
    return this.scan(embedder, query, new Set(kinds), k);
  }

  /** The portable scan over the vectors kept in memory (two-stage for LSA, see vector-scan.ts). */
  private async scan(embedder: Embedder, query: Float32Array, kinds: ReadonlySet<string>, k: number) {
    const cache = await this.loadCache(embedder);
    const clusters = cache.clusters;
    if (!clusters) return nearestInTable(cache, query, kinds, k);
    const probe = Math.max(1, Math.ceil(clusters.size * IVF_PROBE_SHARE));
    return nearestInTable(cache, query, kinds, k, clusters.candidates(query, probe));
  }

  /**
   * Loads the vectors into memory and, on a large corpus, builds the inverted-file index over
   * them, yielding to the event loop as it goes (prepare() calls it; a server runs it at start).
   */
  private async buildMemoryIndex(embedder: Embedder): Promise<void> {
    const cache = await this.loadCache(embedder);
    if (cache.clusters || cache.ids.length < IVF_MIN_VECTORS) return;
    const started = Date.now();
    this.options.onProgress?.('vector-index', 0, cache.ids.length);
    const lists = Math.min(IVF_MAX_LISTS, Math.ceil(Math.sqrt(cache.ids.length)));
    const clusters = await ClusterIndex.build(cache, lists, {
      sample: IVF_SAMPLE,
      iterations: IVF_ITERATIONS,
      pause: () => new Promise((resolve) => setImmediate(resolve)),
    });
    // Vectors that arrived while it was built join their lists now.
    if (this.cache === cache) {
      for (let slot = clusters.assigned; slot < cache.ids.length; slot++) clusters.assign(cache, slot);
      cache.clusters = clusters;
    }
    this.options.onProgress?.('vector-index', cache.ids.length, Math.round((Date.now() - started) / 1000));
  }

  private async loadCache(embedder: Embedder): Promise<VectorCache> {
    if (!this.cache || this.cache.model !== embedder.model) {
      this.cache = {
        model: embedder.model,
        seq: 0,
        dimensions: embedder.dimensions,
        slots: new Map(),
        ids: [],
        kinds: [],
        data: new Float32Array(embedder.dimensions * 1024),
        clusters: undefined,
      };
    }
    const cache = this.cache;
    for (;;) {
      const rows = await vectorsSince(this.db, embedder.model, cache.seq, 5_000);
      if (rows.length === 0) break;
      for (const row of rows) {
        let slot = cache.slots.get(row.document_id);
        if (slot === undefined) {
          slot = cache.ids.length;
          cache.slots.set(row.document_id, slot);
          cache.ids.push(row.document_id);
          cache.kinds.push(row.kind);
          if ((slot + 1) * cache.dimensions > cache.data.length) {
            const grown = new Float32Array(cache.data.length * 2);
            grown.set(cache.data);
            cache.data = grown;
          }
        }
        cache.data.set(row.vector.subarray(0, cache.dimensions), slot * cache.dimensions);
        // A new slot joins its nearest list; a changed vector stays in the list it had.
        if (cache.clusters && slot >= cache.clusters.assigned) cache.clusters.assign(cache, slot);
        cache.seq = row.seq;
      }
    }
    return cache;
  }
}
