// GET /v1/semantic-search: hybrid retrieval over members, stocks, trades, bills, filings, insider
// trades, 13D/G positions, lobbying filings and contract awards. Two retrievers read the same
// documents (storage/repositories/search-index.ts, their vectors search-vectors.ts): the
// database's full-text engine (SQLite FTS5 bm25 / PostgreSQL ts_rank_cd) and embedding vectors
// (sqlite-vec KNN, or an exact scan in memory where the database has no vector index). Their
// rankings are fused by reciprocal rank fusion; each result says which retriever found it, at which
// rank, and which words matched.
import type { Kysely } from 'kysely';
import {
  type FullTextQuery,
  fullTextDocumentCounts,
  fullTextEngine,
  fullTextSearch,
  membersByTrades,
  SEARCH_KINDS,
  type SearchKind,
  searchDocumentHeads,
  searchDocumentIdsByKeys,
  searchDocumentsByIds,
} from '../storage/repositories/search-index.js';
import {
  type IvfAssignment,
  loadIvf,
  saveIvf,
  saveIvfAssignments,
} from '../storage/repositories/search-ivf.js';
import {
  activateEmbeddingModel,
  activeEmbeddingModel,
  countDocumentsWithoutVector,
  countSearchDocuments,
  documentsWithoutVector,
  nearestVectors,
  sampleSearchTexts,
  storeVectors,
  vectorsSince,
} from '../storage/repositories/search-vectors.js';
import type { Database } from '../storage/schema.js';
import { refreshSearchDocuments } from './documents.js';
import { type Embedder, LsaEmbedder } from './embedders.js';
import {
  CONCEPT_VOCABULARY_VERSION,
  type ConceptMatch,
  conceptsIn,
  EntityIndex,
  type NameMatch,
} from './entities.js';
import { kindsNamedIn } from './record-kinds.js';
import { SimdVectors } from './simd-dots.js';
import { queryWords, stemsIn, tokenize } from './text.js';
import { tradeFilterOf } from './trade-filter.js';
import { ClusterIndex, nearestInTable, permuteVectors } from './vector-scan.js';

export const SEMANTIC_TYPES = SEARCH_KINDS;
export type SemanticType = SearchKind;
export const SEARCH_MODES = ['hybrid', 'lexical', 'vector'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Reciprocal rank fusion's constant (Cormack, Clarke & Büttcher 2009): 1 / (60 + rank). */
export const RRF_K = 60;
/** How deep each retriever's ranking goes before fusion. */
const CANDIDATES = 100;
/** Fused hits read at a time to form the groups of an answer. */
const GROUP_DEPTH = 100;
/** Matching trades shown inside a result. */
const EVIDENCE_SHOWN = 5;
/** What each doubling of a group's matching trades adds to its fused score (about one rank near the top). */
const TRADES_WEIGHT = 0.0003;

/** Whether a question asks for people ("who ...", "senators who ..."): its trades then answer as members. Pure. */
export function asksForPeople(question: string): boolean {
  return /\b(?:who|whom|members?|senators?|representatives?|congress(?:wo)?m[ae]n|lawmakers?|politicians?|legislators?|democrats|republicans)\b/i.test(
    question,
  );
}
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
/**
 * A question word in this many documents or fewer may be a misspelling: the records themselves hold
 * a few ("Mcconnel" in one filing), a name people type is in many more.
 */
const TYPO_RARE = 2;
/** A question word in more documents than this is not taken as a company's other name. */
const ALIAS_RARE = 1_000;
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
/**
 * The stored index (migration 0023-search-ivf) is trained again once the vectors have grown this
 * much since it was trained (its √n lists were sized, and its centroids placed, for fewer) ...
 */
export const IVF_REBUILD_GROWTH = 2;
/**
 * ... or once the vectors sit this much further from their centroids, on average (cosine), than
 * right after training: the corpus has moved away from what the centroids describe.
 */
export const IVF_REBUILD_DRIFT = 0.05;

/**
 * Why a stored inverted-file index must be trained again, or null when it can be loaded. A new
 * embedding model or dimension never reaches here: activating a model drops every stored index.
 * Pure.
 */
export function ivfRebuildReason(
  stored: { trainedVectors: number; trainedSimilarity: number },
  vectors: number,
  meanSimilarity: number,
): string | null {
  if (vectors >= stored.trainedVectors * IVF_REBUILD_GROWTH)
    return `vectors grew from ${stored.trainedVectors} to ${vectors}`;
  if (meanSimilarity < stored.trainedSimilarity - IVF_REBUILD_DRIFT)
    return `mean similarity to the centroids fell from ${stored.trainedSimilarity.toFixed(3)} to ${meanSimilarity.toFixed(3)}`;
  return null;
}

/** Thrown inside the engine's background work once stop() was called. */
export class SearchStopped extends Error {
  constructor() {
    super('the search engine was stopped');
    this.name = 'SearchStopped';
  }
}
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
  weightlessFrom: number = Number.POSITIVE_INFINITY,
  documents?: number,
): FullTextQuery {
  const count = (word: string) => documentCounts.get(word) ?? 0;
  const known = words.filter((word) => count(word) > 0);
  const rare = known.filter((word) => count(word) <= commonAbove);
  const weightless = known.filter((word) => count(word) >= weightlessFrom);
  const plan = { anyOf: rare, allOf: rare.length > 0 ? [] : known, rankBy: known, weightless, cap };
  if (documents === undefined) return plan;
  // bm25's idf in the form that stays positive (a word in most documents still weighs a little);
  // counts read no further than a cap make common words weigh no less than they should.
  const weights = known.map((word) => {
    const n = Math.min(count(word), documents);
    return Math.log(1 + (documents - n + 0.5) / (n + 0.5));
  });
  return { ...plan, weights };
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
  /** Rank among the companies of the question's concepts (most traded by members first). */
  concept?: { rank: number } | null;
  /** Rank among the names the question misspells, and the edits it took. */
  fuzzy?: { rank: number; edits: number } | null;
  /** Rank among the members whose trades fit the question's period, chamber, direction and stocks. */
  trades?: { rank: number; trade_count: number } | null;
  fused: number;
}

/**
 * Fusion constants of the two entity lists: each counts as much as a retriever. A misspelled name is
 * only looked for with the question's words the full-text index does not hold (understand()), so
 * it never competes with an exact match of the same word, and the names the question spells
 * exactly come first in that list.
 */
export const CONCEPT_K = RRF_K;
export const FUZZY_K = RRF_K;
export const TRADES_K = RRF_K;

export interface Ranked {
  id: number;
  parts: ScoreParts;
}

/** Weights of the lists in the fusion (reciprocal rank fusion, each list's term times its weight). */
export interface FusionWeights {
  /** The vector list for a document another list also found. */
  vector: number;
  /** The vector list for a document no other list found. */
  vectorAlone: number;
}

/** Plain reciprocal rank fusion: every list counts the same (vector mode, and an embeddings provider's vectors). */
export const EQUAL_WEIGHTS: FusionWeights = { vector: 1, vectorAlone: 1 };

/**
 * The built-in LSA model's vectors in hybrid mode: they break ties among what the full-text and
 * entity lists found, and a document only they find enters low. LSA is built from this database's
 * own words, so it mostly restates the full-text match with more noise; at equal weight its
 * neighbours pushed exact role, name and product matches out of the top ten (BENCHMARKS.md,
 * labelled set, dev split).
 */
export const LSA_WEIGHTS: FusionWeights = { vector: 0.1, vectorAlone: 0.05 };

/**
 * Reciprocal rank fusion of ranked id lists: score = Σ weight/(k + rank), rank from 1. Pure; ties by
 * the better single rank, then id.
 */
export function fuseRankings(
  lexical: readonly { id: number; score: number }[],
  vector: readonly { id: number; similarity: number }[],
  k: number = RRF_K,
  entities: {
    concept?: readonly { id: number }[];
    fuzzy?: readonly { id: number; edits: number }[];
    trades?: readonly { id: number; trade_count: number }[];
  } = {},
  weights: FusionWeights = EQUAL_WEIGHTS,
): Ranked[] {
  // Each id once, with its better single rank (for the ties).
  const byId = new Map<number, { id: number; parts: ScoreParts; best: number }>();
  const join = (id: number, rank: number, term: number, apply: (parts: ScoreParts) => void) => {
    const known = byId.get(id);
    const entry = known ?? { id, parts: { lexical: null, vector: null, fused: 0 }, best: rank };
    apply(entry.parts);
    entry.parts.fused += term;
    entry.best = Math.min(entry.best, rank);
    if (!known) byId.set(id, entry);
  };
  lexical.forEach((hit, i) => {
    join(hit.id, i + 1, 1 / (k + i + 1), (parts) => {
      parts.lexical = { rank: i + 1, score: hit.score };
    });
  });
  (entities.concept ?? []).forEach((hit, i) => {
    join(hit.id, i + 1, 1 / (CONCEPT_K + i + 1), (parts) => {
      parts.concept = { rank: i + 1 };
    });
  });
  (entities.fuzzy ?? []).forEach((hit, i) => {
    join(hit.id, i + 1, 1 / (FUZZY_K + i + 1), (parts) => {
      parts.fuzzy = { rank: i + 1, edits: hit.edits };
    });
  });
  (entities.trades ?? []).forEach((hit, i) => {
    join(hit.id, i + 1, 1 / (TRADES_K + i + 1), (parts) => {
      parts.trades = { rank: i + 1, trade_count: hit.trade_count };
    });
  });
  // The vector list last: its weight depends on whether another list found the document.
  vector.forEach((hit, i) => {
    const weight = byId.has(hit.id) ? weights.vector : weights.vectorAlone;
    if (weight <= 0) return;
    join(hit.id, i + 1, weight / (k + i + 1), (parts) => {
      parts.vector = { rank: i + 1, similarity: hit.similarity };
    });
  });
  return [...byId.values()]
    .sort((a, b) => b.parts.fused - a.parts.fused || a.best - b.best || a.id - b.id)
    .map(({ id, parts }) => ({ id, parts }));
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
  if (parts.concept)
    reasons.push(`rank ${parts.concept.rank} among the companies of the concept asked about`);
  if (parts.fuzzy) reasons.push(`name close to a word of the question (${parts.fuzzy.edits} letters apart)`);
  if (parts.trades)
    reasons.push(
      `rank ${parts.trades.rank} among the members by trades of the period, chamber and direction asked about (${parts.trades.trade_count})`,
    );
  return reasons.join('; ');
}

/** The stages of one question, as onTiming names them. */
export type SearchStage =
  | 'prepare'
  | 'term-counts'
  | 'full-text'
  | 'embed'
  | 'vector-scan'
  | 'fusion'
  | 'hydrate';

export interface SearchOptions {
  /** A remote embeddings provider; without one the LSA model trained on the corpus is used. */
  embedder?: Embedder;
  onProgress?: (stage: string, done: number, total: number) => void;
  /** Told how long each stage of a question took (the search profile in bench/search-profile.ts). */
  onTiming?: (stage: SearchStage, ms: number) => void;
  /** Vectors past which the in-memory inverted-file index is used (20,000; tests set fewer). */
  ivfMinVectors?: number;
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
  /** The search_vectors.seq of each slot's vector. */
  seqs: number[];
  /** Each slot's list as stored for its current vector (-1: none), read before the index is. */
  storedLists: number[];
  data: Float32Array;
  /** The WebAssembly memory `data` lives in, for the SIMD scan (undefined: a plain array). */
  simd: SimdVectors | undefined;
  /** The inverted-file index over `data`, once built or loaded (large corpora only). */
  clusters: ClusterIndex | undefined;
  /** Vectors the index was trained on (the growth rule). */
  trainedVectors: number;
}

/**
 * The cache's table with room for `floats`: grown in place in its WebAssembly memory, or copied
 * into a larger plain array (also when that memory cannot grow further: the scan then stays in
 * JavaScript).
 */
function grownTable(cache: VectorCache, floats: number): Float32Array {
  if (cache.simd) {
    try {
      return cache.simd.grow(floats);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      cache.simd = undefined;
    }
  }
  const grown = new Float32Array(floats);
  grown.set(cache.data);
  return grown;
}

export class SemanticSearch {
  private checkedAt = -Infinity;
  /**
   * prepare() calls completed, and the count at the cache's last read: the vectors are read again
   * once after each prepare() (which is when new ones can have been stored), not on every question.
   */
  private preparations = 0;
  private vectorsReadAt = -1;
  private preparing: Promise<void> | undefined;
  private indexing: Promise<void> | undefined;
  private embedder: Embedder | undefined;
  private cache: VectorCache | undefined;
  private vectorIndex: 'sqlite-vec' | 'exact-scan' | 'memory-ivf' = 'exact-scan';
  /** Documents per word (counted up to the common threshold), valid for `documents`. */
  private termCounts = new Map<string, number>();
  private documents = 0;
  private retraining: Promise<void> | undefined;
  /** Members' and companies' names and the companies' concepts (entities.ts), loaded with the documents. */
  private entities: EntityIndex | undefined;
  private stopRequested = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: SearchOptions = {},
  ) {}

  /**
   * Brings the index up to date: new and changed records become documents, the embedding model is
   * chosen (trained on first use), and documents without a vector are embedded.
   */
  /**
   * Stops the background work (a server shutting down): every step after this one ends with
   * SearchStopped instead of touching a database that is about to close.
   */
  stop(): void {
    this.stopRequested = true;
  }

  /** Whether stop() was called. */
  get stopped(): boolean {
    return this.stopRequested;
  }

  private checkStopped(): void {
    if (this.stopRequested) throw new SearchStopped();
  }

  /** A turn of the event loop between chunks of long work, and the place it notices stop(). */
  private async pause(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.checkStopped();
  }

  async prepare(now: Date, budget: number = Number.POSITIVE_INFINITY): Promise<void> {
    this.preparing ??= this.update(now, budget).finally(() => {
      this.preparing = undefined;
    });
    await this.preparing;
    this.checkedAt = now.getTime();
    this.preparations++;
  }

  private async update(now: Date, budget: number): Promise<void> {
    const progress = this.options.onProgress;
    this.checkStopped();
    const refreshed = await refreshSearchDocuments(this.db, now, (source, done) =>
      progress?.(`documents:${source}`, done, done),
    );
    if (refreshed.indexed > 0 || refreshed.removed > 0 || this.documents === 0 || !this.entities) {
      this.documents = await countSearchDocuments(this.db);
      this.termCounts = new Map();
      this.entities = await EntityIndex.load(this.db);
    }
    const embedder = await this.chooseEmbedder(now);
    const total = await countDocumentsWithoutVector(this.db, embedder.model);
    let done = 0;
    const limit = embedder.provider === 'lsa' ? Number.POSITIVE_INFINITY : budget;
    while (done < Math.min(total, limit)) {
      this.checkStopped();
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
    this.checkStopped();
    this.indexing ??= this.buildMemoryIndex(embedder)
      .catch((error: unknown) => {
        // Stopping is not a failure; vectorIndexReady() callers read stopped.
        if (error instanceof SearchStopped) return;
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
    let mark = performance.now();
    if (now.getTime() - this.checkedAt >= RECHECK_MS || !this.embedder) {
      await this.prepare(now, REMOTE_EMBED_BUDGET);
      mark = this.timed('prepare', mark);
    }
    const mode = params.mode ?? 'hybrid';
    const words = queryWords(params.q);
    const forPeople = asksForPeople(params.q);
    const kinds = kindsNamedIn(params.q, params.types, forPeople);
    const depth = Math.max(CANDIDATES, params.limit);
    // Both sides at once: on PostgreSQL the full-text query runs on the server while the vector
    // side scans here; better-sqlite3 is synchronous, so on SQLite they simply run one after the other.
    const [lexical, vector] = await Promise.all([
      mode === 'vector' ? [] : this.fullText(words, kinds, depth),
      mode === 'lexical' ? [] : this.nearest(params.q, kinds, depth),
    ]);
    mark = performance.now();
    const understood = this.understand(params.q, words, params.types);
    const people = forPeople || understood.namesMember;
    const traders = people ? await this.traders(params.q, params.types, understood) : [];
    const fused = fuseRankings(
      lexical,
      vector,
      RRF_K,
      {
        concept: understood.conceptCompanies,
        fuzzy: understood.misspelled.map((match) => ({
          id: match.documentId,
          edits: match.matched.reduce((sum, entry) => sum + entry.edits, 0),
        })),
        trades: traders,
      },
      mode === 'hybrid' && this.embedder?.provider === 'lsa' ? LSA_WEIGHTS : EQUAL_WEIGHTS,
    );
    mark = this.timed('fusion', mark);
    const groups = await this.group(fused, kinds, params.limit, people);
    const queryTerms = new Map(words.map((word) => [tokenize(word)[0] ?? word, word]));
    const queryStems = new Set(queryTerms.keys());
    const top = groups[0]?.rank ?? 1;
    const answer = {
      query: params.q,
      mode,
      terms: words.map((term) => ({ term, weight: 1 })),
      concepts: understood.concepts.map((concept) => ({
        ...concept,
        vocabulary_version: CONCEPT_VOCABULARY_VERSION,
      })),
      corrections: understood.misspelled.slice(0, 5).map((match) => ({
        key: match.key,
        matched: match.matched.map((entry) => ({ term: entry.term, name: entry.word, edits: entry.edits })),
      })),
      retrieval: {
        lexical: fullTextEngine(this.db),
        vector_index: this.vectorIndex,
        model: this.embedder?.model ?? null,
        provider: this.embedder?.provider ?? null,
        fusion: `reciprocal rank fusion, k=${RRF_K}`,
      },
      results: groups.map((group) => {
        const doc = group.document;
        const texts = [
          `${doc.title} ${doc.body}`,
          ...group.evidence.map((item) => `${item.title} ${item.body}`),
        ];
        const present = stemsIn(texts.join(' '), queryStems);
        const matched = [...queryTerms].filter(([stemmed]) => present.has(stemmed)).map(([, word]) => word);
        const why = explainMatch(group.parts, matched);
        return {
          type: doc.kind,
          key: doc.doc_key,
          title: doc.title,
          subtitle: doc.subtitle,
          score: Math.round((group.rank / top) * 1000) / 1000,
          score_parts: group.parts,
          matched_terms: matched,
          why: group.evidenceCount > 0 ? `${why}; ${group.evidenceCount} matching trades inside` : why,
          ...(JSON.parse(doc.refs) as SearchRefs),
          evidence: group.evidence.map((item) => ({
            type: item.kind,
            key: item.doc_key,
            title: item.title,
            subtitle: item.subtitle,
            ...(JSON.parse(item.refs) as SearchRefs),
          })),
          evidence_count: group.evidenceCount,
        };
      }),
      total: groups.length,
    };
    this.timed('hydrate', mark);
    return answer;
  }

  /**
   * A question about people that names a period, or stocks (a company, a concept), answers with the
   * members whose trades fit it, most trades first (chamber and direction narrow it further). A
   * question with neither ("senators who sold stock") names no trades to rank by.
   */
  private async traders(
    q: string,
    kinds: readonly string[],
    understood: { conceptCompanies: readonly { key: string }[]; misspelled: readonly NameMatch[] },
  ): Promise<{ id: number; trade_count: number }[]> {
    if (!kinds.includes('politicians')) return [];
    const filter = tradeFilterOf(q);
    const tickers = [
      ...understood.misspelled.map((match) => match.key),
      ...understood.conceptCompanies.map((company) => company.key),
    ]
      .filter((key) => key.startsWith('ticker:'))
      .map((key) => key.slice('ticker:'.length));
    if (!filter.from && !filter.to && tickers.length === 0) return [];
    const members = await membersByTrades(this.db, { ...filter, tickers }, CANDIDATES);
    const ids = new Map(
      (
        await searchDocumentIdsByKeys(
          this.db,
          members.map((member) => `politician:${member.slug}`),
        )
      ).map((row) => [row.doc_key, row.id] as const),
    );
    return members.flatMap((member) => {
      const id = ids.get(`politician:${member.slug}`);
      return id === undefined ? [] : [{ id, trade_count: member.trade_count }];
    });
  }

  /** The concepts and misspelled names of a question, as documents of the asked kinds. */
  private understand(q: string, words: readonly string[], kinds: readonly string[]) {
    const concepts: ConceptMatch[] = conceptsIn(q);
    const entities = this.entities ?? EntityIndex.empty();
    // Trades answer as their company or member (grouping), so those lists serve a trades question too.
    const companies = kinds.includes('tickers');
    const members = kinds.includes('politicians');
    const conceptCompanies = companies ? entities.conceptCompanies(concepts, CANDIDATES) : [];
    // Only words the full-text index holds (almost) nowhere can be misspellings: an exact match is not one.
    const unknown = words.filter((word) => (this.termCounts.get(word) ?? 0) <= TYPO_RARE);
    const named = entities.named(words);
    // A company's other name counts where the word is rare in the index and no concept explains
    // it ("big" of "big banks" is not the Big Mac).
    const conceptStems = new Set(concepts.flatMap((concept) => tokenize(concept.phrase)));
    const aliased = entities.aliased(
      words,
      (word) =>
        !conceptStems.has(tokenize(word)[0] ?? word) && (this.termCounts.get(word) ?? 0) <= ALIAS_RARE,
    );
    const seen = new Set<number>();
    const misspelled: NameMatch[] = [...named, ...aliased, ...entities.misspelled(unknown, 20)].filter(
      (match) => {
        if (seen.has(match.documentId)) return false;
        seen.add(match.documentId);
        return match.key.startsWith('ticker:') ? companies : members;
      },
    );
    const namesMember = misspelled.some((match) => match.key.startsWith('politician:'));
    return { concepts, conceptCompanies, misspelled, namesMember };
  }

  /**
   * Groups the fused hits by the entity that answers them, best first: a trade joins its member
   * (when the question asks for people, or the trade has no stock) or its company; with neither
   * kind asked for, a member's trades in one stock are one result. Every other record is its own
   * result. `limit` groups are returned, each with its best matching trades as evidence.
   */
  private async group(fused: readonly Ranked[], kinds: readonly string[], limit: number, people: boolean) {
    const wantMembers = kinds.includes('politicians');
    const wantTickers = kinds.includes('tickers');
    const groups = new Map<
      string,
      { key: string; head?: number; parts: ScoreParts; evidence: number[]; count: number }
    >();
    let at = 0;
    const page = Math.max(GROUP_DEPTH, limit * 5);
    const gather = limit * 3;
    while (groups.size < gather && at < fused.length) {
      const slice = fused.slice(at, at + page);
      at += slice.length;
      const heads = new Map(
        (
          await searchDocumentHeads(
            this.db,
            slice.map((hit) => hit.id),
          )
        ).map((head) => [head.id, head]),
      );
      for (const hit of slice) {
        const head = heads.get(hit.id);
        // The names and concepts a question holds are read over every kind it was asked for; its
        // answer keeps the kinds it asks for (record-kinds.ts).
        if (!head || !kinds.includes(head.kind as SemanticType)) continue;
        let key = head.doc_key;
        const isTrade = head.kind === 'trades';
        if (isTrade) {
          const refs = JSON.parse(head.refs) as SearchRefs;
          if (wantMembers && refs.slug && (people || !refs.ticker || !wantTickers))
            key = `politician:${refs.slug}`;
          else if (wantTickers && refs.ticker) key = `ticker:${refs.ticker}`;
          else key = `trades:${refs.slug ?? ''}:${refs.ticker ?? ''}`;
        }
        const known = groups.get(key);
        if (!known && groups.size >= gather) continue;
        const group = known ?? { key, parts: hit.parts, evidence: [], count: 0 };
        if (isTrade) {
          group.count += 1;
          if (group.evidence.length < EVIDENCE_SHOWN) group.evidence.push(hit.id);
          if (key.startsWith('trades:') && group.head === undefined) group.head = hit.id;
        } else {
          group.head = hit.id;
          // The entity's own match counts when it is better than its trades'.
          if (hit.parts.fused > group.parts.fused) group.parts = hit.parts;
        }
        groups.set(key, group);
      }
    }
    // More matching trades make a member or a company a better answer, by a little: one more rank's
    // worth of fusion for each doubling.
    const rankOf = (group: { parts: ScoreParts; count: number }) =>
      group.parts.fused + TRADES_WEIGHT * Math.log2(1 + group.count);
    const chosen = [...groups.values()].sort((a, b) => rankOf(b) - rankOf(a)).slice(0, limit);
    // Entities answered only through their trades: their own documents, by key.
    const missing = chosen.filter((group) => group.head === undefined).map((group) => group.key);
    const byKey = new Map(
      (await searchDocumentIdsByKeys(this.db, missing)).map((row) => [row.doc_key, row.id] as const),
    );
    for (const group of chosen) group.head ??= byKey.get(group.key) ?? group.evidence[0];
    const ids = new Set<number>();
    for (const group of chosen) {
      if (group.head !== undefined) ids.add(group.head);
      for (const id of group.evidence) ids.add(id);
    }
    const documents = new Map(
      (await searchDocumentsByIds(this.db, [...ids])).map((doc) => [doc.id, doc] as const),
    );
    return chosen.flatMap((group) => {
      const document = group.head === undefined ? undefined : documents.get(group.head);
      if (!document) return [];
      const evidence = group.evidence
        .filter((id) => id !== group.head)
        .flatMap((id) => documents.get(id) ?? []);
      const evidenceCount = document.kind === 'trades' ? group.count - 1 : group.count;
      return [{ document, parts: group.parts, evidence, evidenceCount, rank: rankOf(group) }];
    });
  }

  private async fullText(words: readonly string[], kinds: readonly string[], depth: number) {
    const commonAbove = Math.max(COMMON_FLOOR, Math.ceil(this.documents * COMMON_SHARE));
    // bm25's idf is not positive for a word in half of the documents or more (FullTextQuery.weightless).
    const weightlessFrom = Math.max(1, this.documents / 2);
    // Kept until the index changes; a server asked many distinct words starts the cache afresh.
    if (this.termCounts.size > TERM_COUNTS_KEPT) this.termCounts = new Map();
    let mark = performance.now();
    const unknown = words.filter((word) => !this.termCounts.has(word));
    if (unknown.length > 0) {
      // Counted past weightlessFrom (once per word while the index stays the same).
      const counted = await fullTextDocumentCounts(
        this.db,
        unknown,
        Math.max(commonAbove, Math.ceil(weightlessFrom)),
      );
      for (const [word, n] of counted) this.termCounts.set(word, n);
      mark = this.timed('term-counts', mark);
    }
    const plan = planFullText(words, this.termCounts, commonAbove, MATCH_CAP, weightlessFrom, this.documents);
    const allKinds = SEARCH_KINDS.every((kind) => kinds.includes(kind));
    const ranked = await fullTextSearch(this.db, { ...plan, allKinds }, kinds, depth);
    this.timed('full-text', mark);
    return ranked;
  }

  /** Reports a stage's time since `since` to onTiming; returns now. */
  private timed(stage: SearchStage, since: number): number {
    const now = performance.now();
    this.options.onTiming?.(stage, now - since);
    return now;
  }

  private async nearest(q: string, kinds: readonly string[], k: number) {
    const embedder = this.embedder;
    if (!embedder) return [];
    let mark = performance.now();
    const [query] = await embedder.embed([q], 'query');
    mark = this.timed('embed', mark);
    if (!query || query.every((x) => x === 0)) return [];
    const found = await this.nearestTo(embedder, query, kinds, k);
    this.timed('vector-scan', mark);
    return found;
  }

  private async nearestTo(embedder: Embedder, query: Float32Array, kinds: readonly string[], k: number) {
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
    const cache =
      this.cache?.model === embedder.model && this.vectorsReadAt === this.preparations
        ? this.cache
        : await this.loadCache(embedder);
    const clusters = cache.clusters;
    if (!clusters) return nearestInTable(cache, query, kinds, k);
    const probe = Math.max(1, Math.ceil(clusters.size * IVF_PROBE_SHARE));
    return clusters.nearest(cache, query, kinds, k, probe);
  }

  /**
   * Puts an index in use over the cache, first renumbering the cache's slots list by list
   * (permuteVectors, in place) so that a probed list's vectors lie together in memory: the scan
   * reads them in one sweep instead of one jump per vector (3.5 times less CPU on the bench
   * database, BENCHMARKS.md). Vectors added later join their lists from the end of the table.
   */
  private install(cache: VectorCache, clusters: ClusterIndex, trainedVectors: number): void {
    const order = clusters.listOrder(cache.ids.length);
    permuteVectors(cache.data, cache.dimensions, order);
    const renumbered = <T>(values: readonly T[]) => Array.from(order, (old) => values[old] as T);
    cache.ids = renumbered(cache.ids);
    cache.kinds = renumbered(cache.kinds);
    cache.seqs = renumbered(cache.seqs);
    cache.storedLists = renumbered(cache.storedLists);
    cache.slots = new Map(cache.ids.map((id, slot) => [id, slot]));
    clusters.renumber(order);
    cache.clusters = clusters;
    cache.trainedVectors = trainedVectors;
  }

  /**
   * Loads the vectors into memory and, on a large corpus, the inverted-file index over them: the
   * stored one (migration 0023-search-ivf) unless ivfRebuildReason() says it must be trained
   * again, else trained here, yielding to the event loop as it goes (prepare() calls it; a server
   * runs it at start).
   */
  private async buildMemoryIndex(embedder: Embedder): Promise<void> {
    const cache = await this.loadCache(embedder);
    if (cache.clusters || cache.ids.length < (this.options.ivfMinVectors ?? IVF_MIN_VECTORS)) return;
    if (await this.loadStoredIndex(cache)) return;
    await this.trainIndex(cache);
  }

  /** Puts the stored index back over the cache; false when there is none or it must be trained again. */
  private async loadStoredIndex(cache: VectorCache): Promise<boolean> {
    const stored = await loadIvf(this.db, cache.model);
    if (!stored || stored.dimensions !== cache.dimensions) return false;
    const started = Date.now();
    const clusters = ClusterIndex.fromCentroids(stored.dimensions, stored.centroids);
    const unassigned: number[] = [];
    let similarity = 0;
    for (let slot = 0; slot < cache.ids.length; slot++) {
      const list = cache.storedLists[slot] ?? -1;
      if (list >= 0 && list < clusters.size) clusters.place(slot, list);
      else unassigned.push(slot);
      if (slot % 20_000 === 19_999) await this.pause();
    }
    // Vectors stored after the index was saved (by this process before a restart, or another one).
    const assignments = unassigned.map((slot) => this.assignment(cache, clusters, slot));
    for (let slot = 0; slot < cache.ids.length; slot++) similarity += clusters.similarity(cache, slot);
    const reason = ivfRebuildReason(stored, cache.ids.length, similarity / Math.max(1, cache.ids.length));
    if (reason) {
      this.options.onProgress?.(`vector-index stale: ${reason}`, cache.ids.length, stored.trainedVectors);
      return false;
    }
    await saveIvfAssignments(this.db, cache.model, assignments);
    if (this.cache !== cache) return false;
    this.install(cache, clusters, stored.trainedVectors);
    this.options.onProgress?.('vector-index loaded', cache.ids.length, (Date.now() - started) / 1000);
    return true;
  }

  /**
   * Trains the index over the cache (replacing the one in use, which keeps answering until this
   * one is done) and stores it.
   */
  private async trainIndex(cache: VectorCache): Promise<void> {
    const started = Date.now();
    this.options.onProgress?.('vector-index', 0, cache.ids.length);
    const lists = Math.min(IVF_MAX_LISTS, Math.ceil(Math.sqrt(cache.ids.length)));
    const clusters = await ClusterIndex.build(cache, lists, {
      sample: IVF_SAMPLE,
      iterations: IVF_ITERATIONS,
      pause: () => this.pause(),
    });
    if (this.cache !== cache) return;
    // Vectors that arrived while it was built join their lists now.
    for (let slot = 0; slot < cache.ids.length; slot++)
      if (clusters.listOf(slot) < 0) clusters.assign(cache, slot);
    const trainedVectors = cache.ids.length;
    let similarity = 0;
    const assignments: IvfAssignment[] = [];
    for (let slot = 0; slot < trainedVectors; slot++) {
      similarity += clusters.similarity(cache, slot);
      assignments.push({
        document_id: cache.ids[slot] ?? 0,
        list: clusters.listOf(slot),
        seq: cache.seqs[slot] ?? 0,
      });
    }
    await saveIvf(
      this.db,
      cache.model,
      {
        dimensions: cache.dimensions,
        trainedVectors,
        trainedSimilarity: similarity / Math.max(1, trainedVectors),
        centroids: clusters.centroids,
      },
      assignments,
      new Date(),
    );
    if (this.cache !== cache) return;
    this.install(cache, clusters, trainedVectors);
    this.options.onProgress?.('vector-index', cache.ids.length, Math.round((Date.now() - started) / 1000));
  }

  /** Puts a slot in its nearest list: the one place a vector gets a list once an index exists. */
  private assignment(cache: VectorCache, clusters: ClusterIndex, slot: number): IvfAssignment {
    return {
      document_id: cache.ids[slot] ?? 0,
      list: clusters.assign(cache, slot),
      seq: cache.seqs[slot] ?? 0,
    };
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
        seqs: [],
        storedLists: [],
        data: new Float32Array(0),
        simd: SimdVectors.create(embedder.dimensions, embedder.dimensions * 1024),
        clusters: undefined,
        trainedVectors: 0,
      };
      this.cache.data = this.cache.simd?.data ?? new Float32Array(embedder.dimensions * 1024);
    }
    const cache = this.cache;
    const preparations = this.preparations;
    const assignments: IvfAssignment[] = [];
    for (;;) {
      this.checkStopped();
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
            cache.data = grownTable(cache, cache.data.length * 2);
          }
        }
        cache.data.set(row.vector.subarray(0, cache.dimensions), slot * cache.dimensions);
        cache.seqs[slot] = row.seq;
        cache.storedLists[slot] = row.list ?? -1;
        cache.seq = row.seq;
        // A new or changed vector (re)joins its nearest list, and the list is stored.
        const clusters = cache.clusters;
        if (!clusters) continue;
        if (row.list !== null && row.list < clusters.size) clusters.place(slot, row.list);
        else assignments.push(this.assignment(cache, clusters, slot));
      }
    }
    await saveIvfAssignments(this.db, cache.model, assignments);
    this.vectorsReadAt = preparations;
    this.retrainIfGrown(cache);
    return cache;
  }

  /** While serving, a corpus that outgrew its index gets a new one in the background (ivfRebuildReason). */
  private retrainIfGrown(cache: VectorCache): void {
    if (!cache.clusters || this.retraining) return;
    if (cache.ids.length < cache.trainedVectors * IVF_REBUILD_GROWTH) return;
    this.retraining = this.trainIndex(cache)
      .catch((error: unknown) => {
        if (error instanceof SearchStopped) return;
        this.options.onProgress?.(
          `vector-index failed: ${error instanceof Error ? error.message : error}`,
          0,
          0,
        );
      })
      .finally(() => {
        this.retraining = undefined;
      });
  }
}
