// GET /v1/semantic-search: hybrid retrieval over members, stocks, trades, bills, filings, insider
// trades, 13D/G positions, lobbying filings and contract awards. Two retrievers read the same
// documents (storage/repositories/search-index.ts, their vectors search-vectors.ts): the
// database's full-text engine (SQLite FTS5 bm25 / PostgreSQL ts_rank_cd) and embedding vectors
// (sqlite-vec KNN, or an exact scan in memory where the database has no vector index). Their
// rankings are fused by reciprocal rank fusion; each result says which retriever found it, at which
// rank, and which words matched. This engine keeps the index up to date and answers a question;
// what a question means is understand.ts, the fusion fusion.ts, the full-text plan full-text-plan.ts,
// the vectors scanned in memory vector-memory.ts, and the grouping of hits into answers answer-groups.ts.
import type { Kysely } from 'kysely';
import {
  fullTextDocumentCounts,
  fullTextEngine,
  fullTextSearch,
  membersByTrades,
  SEARCH_KINDS,
  type SearchKind,
  searchDocumentIdsByKeys,
} from '../storage/repositories/search-index.js';
import {
  activateEmbeddingModel,
  activeEmbeddingModel,
  countDocumentsWithoutVector,
  countSearchDocuments,
  documentsWithoutVector,
  embeddingModelState,
  nearestVectors,
  sampleSearchTextsPage,
  storeVectors,
} from '../storage/repositories/search-vectors.js';
import type { Database } from '../storage/schema.js';
import { groupHits, servedRefs } from './answer-groups.js';
import { refreshSearchDocuments } from './documents.js';
import { type Embedder, LsaEmbedder } from './embedders.js';
import { CONCEPT_VOCABULARY_VERSION, EntityIndex, type EntitySnapshot } from './entities.js';
import { MATCH_CAP, planFullText } from './full-text-plan.js';
import { EQUAL_WEIGHTS, explainMatch, fuseRankings, LSA_WEIGHTS, RRF_K } from './fusion.js';
import { kindsNamedIn } from './record-kinds.js';
import { queryWords, stemsIn, tokenize } from './text.js';
import { tradeFilterOf } from './trade-filter.js';
import { nextTurn, SlicedBatch } from './turns.js';
import { asksForPeople, type Understood, understandQuestion } from './understand.js';
import { MemoryVectors, SearchStopped } from './vector-memory.js';

export const SEMANTIC_TYPES = SEARCH_KINDS;
export type SemanticType = SearchKind;
export const SEARCH_MODES = ['hybrid', 'lexical', 'vector'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** How deep each retriever's ranking goes before fusion. */
const CANDIDATES = 100;

/** How long the index is trusted before new records are looked for again. */
const RECHECK_MS = 30_000;
/** Documents a remote provider embeds while a question waits (the rest: `dcledger search index`). */
export const REMOTE_EMBED_BUDGET = 256;
/** Documents embedded at a time, at the most. */
const EMBED_BATCH = 500;
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

/** Words whose document counts are kept in memory at most. */
const TERM_COUNTS_KEPT = 50_000;

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
  /**
   * Documents worded and the local model embedding in threads of a lower priority: for the
   * warm-up's process, whose own thread holds the write lock for its writes.
   */
  inThreads?: boolean;
}

/** What an engine hands over with its vectors besides the model (writeVectorTable → adoptVectorTable). */
interface HandedOverState {
  documents: number;
  entities: EntitySnapshot;
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

export class SemanticSearch {
  private checkedAt = -Infinity;
  private preparing: Promise<void> | undefined;
  /** See preparedElsewhere(). */
  private ahead: Promise<void> | undefined;
  private indexing: Promise<void> | undefined;
  private embedder: Embedder | undefined;
  /** The vectors scanned in memory and their inverted-file index (vector-memory.ts). */
  private readonly memory: MemoryVectors;
  private vectorIndex: 'sqlite-vec' | 'exact-scan' | 'memory-ivf' = 'exact-scan';
  /** Documents per word (counted up to the common threshold), valid for `documents`. */
  private termCounts = new Map<string, number>();
  private documents = 0;
  /** Members' and companies' names and the companies' concepts (entities.ts), loaded with the documents. */
  private entities: EntityIndex | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: SearchOptions = {},
  ) {
    this.memory = new MemoryVectors(db, {
      onProgress: (stage, done, total) => this.options.onProgress?.(stage, done, total),
      ivfMinVectors: options.ivfMinVectors,
      checkStopped: () => this.checkStopped(),
    });
  }

  /**
   * Stops the background work (a server shutting down): every step after this one ends with
   * SearchStopped instead of touching a database that is about to close.
   */
  stop(): void {
    this.stopping.abort();
  }

  /** Whether stop() was called. */
  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Aborted by stop(): work the engine handed elsewhere (the warm-up's process) stops with it. */
  get stopSignal(): AbortSignal {
    return this.stopping.signal;
  }

  private checkStopped(): void {
    if (this.stopped) throw new SearchStopped();
  }

  /**
   * Brings the index up to date: new and changed records become documents, the embedding model is
   * chosen (trained on first use), and documents without a vector are embedded.
   */
  async prepare(now: Date, budget: number = Number.POSITIVE_INFINITY): Promise<void> {
    const ahead = this.ahead;
    this.preparing ??= (
      ahead ? ahead.then(() => this.update(now, budget)) : this.update(now, budget)
    ).finally(() => {
      this.preparing = undefined;
    });
    await this.preparing;
    this.checkedAt = now.getTime();
    this.memory.markStale();
  }

  /**
   * The same preparation runs elsewhere (the serve warm-up's process, on its own connection): until
   * it ends, prepare() waits for it instead of doing the same work beside it, then reads what it
   * stored. Whether it succeeded does not matter here: prepare() then does what is left.
   */
  preparedElsewhere(work: Promise<unknown>): void {
    const ahead: Promise<void> = work.then(
      () => undefined,
      () => undefined,
    );
    this.ahead = ahead;
    void ahead.then(() => {
      if (this.ahead === ahead) this.ahead = undefined;
    });
  }

  /**
   * Writes the vectors held in memory and their inverted-file index to one file that another
   * process's engine can adopt (the serve warm-up hands its work over this way), with the entity
   * index, the document count and the local model's state; false when no vectors are held.
   */
  async writeVectorTable(file: string): Promise<boolean> {
    const engineState: HandedOverState | undefined = this.entities
      ? { documents: this.documents, entities: this.entities.snapshot() }
      : undefined;
    const modelState = this.embedder instanceof LsaEmbedder ? this.embedder.serialize() : undefined;
    return this.memory.writeTable(file, { engineState, modelState });
  }

  /**
   * Takes over the vectors, the index, the entity index and the model another process's engine
   * wrote (writeVectorTable()) instead of reading and building them from the database; the next
   * prepare() reads only what was stored after the file was written, and builds the entity index
   * again only if it finds new or removed documents.
   */
  async adoptVectorTable(file: string): Promise<void> {
    const started = Date.now();
    const adopted = await this.memory.adopt(file);
    this.checkStopped();
    const handed = adopted.engineState as HandedOverState | undefined;
    if (handed) {
      this.entities = await EntityIndex.fromSnapshot(handed.entities);
      this.documents = handed.documents;
      this.termCounts = new Map();
    }
    // A remote provider's embedder is this engine's own; the local model is the writer's.
    if (!this.options.embedder && adopted.modelState && adopted.modelState.length > 0)
      this.embedder = LsaEmbedder.load(adopted.model, adopted.modelState);
    this.options.onProgress?.('vector-index handed over', adopted.vectors, (Date.now() - started) / 1000);
  }

  private async update(now: Date, budget: number): Promise<void> {
    const progress = this.options.onProgress;
    this.checkStopped();
    const onProgress = (source: string, done: number) => progress?.(`documents:${source}`, done, done);
    const inThread = this.options.inThreads;
    const refreshed = await refreshSearchDocuments(this.db, now, { onProgress, inThread });
    if (refreshed.indexed > 0 || refreshed.removed > 0 || this.documents === 0 || !this.entities) {
      const started = Date.now();
      this.documents = await countSearchDocuments(this.db);
      this.termCounts = new Map();
      this.entities = await EntityIndex.load(this.db);
      progress?.('entity index', this.entities.size, (Date.now() - started) / 1000);
      await nextTurn();
    }
    const embedder = await this.chooseEmbedder(now);
    const total = await countDocumentsWithoutVector(this.db, embedder.model);
    const local = embedder.provider === 'lsa';
    const limit = local ? Number.POSITIVE_INFINITY : budget;
    // The local model embeds on this thread (or, with inThreads, on one of its own while this
    // one waits): batches sized to a slice. A remote one waits on the network, not the thread: the
    // largest batch a request may carry.
    const sized = local ? new SlicedBatch(20, EMBED_BATCH) : undefined;
    const threaded =
      this.options.inThreads && total > 0 && embedder instanceof LsaEmbedder
        ? embedder.inThread()
        : undefined;
    try {
      await this.embedDocuments(threaded ?? embedder, total, limit, sized);
    } finally {
      await threaded?.close();
    }
    // Built once per model; until then (or on a small corpus) search uses the other indexes.
    this.checkStopped();
    this.indexing ??= this.memory
      .build(embedder)
      .catch((error: unknown) => {
        // Stopping is not a failure; vectorIndexReady() callers read stopped.
        if (error instanceof SearchStopped) return;
        const message = error instanceof Error ? error.message : String(error);
        this.options.onProgress?.(`vector-index failed: ${message}`, 0, 0);
      })
      .finally(() => {
        if (!this.memory.indexed) this.indexing = undefined;
      });
  }

  /** Stores a vector for the documents without one of `embedder`'s model, a batch at a time. */
  private async embedDocuments(
    embedder: Embedder,
    total: number,
    limit: number,
    sized: SlicedBatch | undefined,
  ): Promise<void> {
    const progress = this.options.onProgress;
    let done = 0;
    let afterId = 0;
    while (done < Math.min(total, limit)) {
      this.checkStopped();
      const started = performance.now();
      const size = sized?.size ?? EMBED_BATCH;
      const batch = await documentsWithoutVector(
        this.db,
        embedder.model,
        Math.min(size, limit - done),
        afterId,
      );
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
      afterId = batch[batch.length - 1]?.id ?? afterId;
      sized?.took(batch.length, performance.now() - started);
      progress?.('vectors', done, total);
      await nextTurn();
    }
  }

  state(): SearchIndexState {
    return {
      preparedAt: Number.isFinite(this.checkedAt) ? new Date(this.checkedAt) : null,
      documents: this.documents,
      model: this.embedder?.model ?? null,
      vectorsInMemory: this.memory.size,
      memoryIndex: this.memory.indexed,
    };
  }

  /** Resolves once the in-memory vector index prepare() started is built (at once if none). */
  async vectorIndexReady(): Promise<void> {
    await this.indexing;
  }

  /**
   * The texts the model is trained on: every n-th document by id, about TRAINING_SAMPLE of them,
   * each text once; read a page at a time with a turn of the event loop between pages.
   */
  private async trainingSample(documents: number): Promise<string[]> {
    const step = Math.max(1, Math.ceil(documents / TRAINING_SAMPLE));
    const texts = new Set<string>();
    const pages = new SlicedBatch(50, 2_000);
    let afterId = 0;
    for (;;) {
      const started = performance.now();
      const size = pages.size;
      const rows = await sampleSearchTextsPage(this.db, step, afterId, size);
      for (const row of rows) texts.add(row.text);
      pages.took(rows.length, performance.now() - started);
      if (rows.length < size) return [...texts];
      afterId = rows[rows.length - 1]?.id ?? afterId;
      await nextTurn();
      this.checkStopped();
    }
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
      active?.provider !== 'lsa' || !active.stored || documents >= active.trained_on * RETRAIN_GROWTH;
    if (!stale && this.embedder?.model === active.model) return this.embedder;
    const state = stale ? null : await embeddingModelState(this.db, active.model);
    if (!stale && state) {
      this.embedder = LsaEmbedder.load(active.model, state);
      return this.embedder;
    }
    const texts = await this.trainingSample(documents);
    this.options.onProgress?.('training', 0, texts.length);
    await nextTurn();
    const trained = await LsaEmbedder.trainOffThread(texts, now);
    this.checkStopped();
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
    this.memory.forget();
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
    const understood = understandQuestion(
      params.q,
      words,
      params.types,
      this.entities,
      (word) => this.termCounts.get(word) ?? 0,
      CANDIDATES,
    );
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
    const groups = await groupHits(this.db, fused, kinds, params.limit, people);
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
          ...servedRefs(doc.refs),
          evidence: group.evidence.map((item) => ({
            type: item.kind,
            key: item.doc_key,
            title: item.title,
            subtitle: item.subtitle,
            ...servedRefs(item.refs),
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
    understood: Pick<Understood, 'conceptCompanies' | 'misspelled'>,
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
    if (this.memory.indexedFor(embedder.model)) {
      this.vectorIndex = 'memory-ivf';
      return this.memory.nearest(embedder, query, new Set(kinds), k);
    }
    const indexed = await nearestVectors(this.db, query, kinds, k);
    if (indexed) {
      this.vectorIndex = 'sqlite-vec';
      return indexed;
    }
    this.vectorIndex = 'exact-scan';
    return this.memory.nearest(embedder, query, new Set(kinds), k);
  }
}
