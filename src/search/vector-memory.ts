// The vectors semantic search scans in memory (databases without a KNN index, and large corpora
// on any database) and the inverted-file index over them: read from search_vectors as they are
// stored, the index loaded from its stored copy or trained here and stored, and trained again once
// the corpus has outgrown it. semantic.ts asks it for the nearest documents; the scans themselves
// are vector-scan.ts.
import type { Kysely } from 'kysely';
import {
  type IvfAssignment,
  loadIvf,
  saveIvf,
  saveIvfAssignments,
} from '../storage/repositories/search-ivf.js';
import { vectorsSince } from '../storage/repositories/search-vectors.js';
import type { Database } from '../storage/schema.js';
import type { Embedder } from './embedders.js';
import { IdSlots } from './id-slots.js';
import { SimdVectors } from './simd-dots.js';
import { SlicedBatch, Slices } from './turns.js';
import { ClusterIndex, nearestInTable, permuteVectors } from './vector-scan.js';
import { readVectorTable, type VectorTableContents, writeVectorTable } from './vector-table-file.js';

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

/** In-memory vectors for the exact scan (databases without a KNN index). */
interface VectorCache {
  model: string;
  seq: number;
  dimensions: number;
  /** The slot of each document's vector. */
  slots: IdSlots;
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

/** What the vectors in memory report, and how they notice that the engine was stopped. */
export interface MemoryVectorHooks {
  onProgress?: (stage: string, done: number, total: number) => void;
  /** Vectors past which the inverted-file index is built (IVF_MIN_VECTORS unless set). */
  ivfMinVectors?: number;
  /** Throws SearchStopped once the engine was stopped. */
  checkStopped: () => void;
}

/** The vectors of one embedding model held in memory, and their inverted-file index once built. */
export class MemoryVectors {
  private cache: VectorCache | undefined;
  /**
   * markStale() calls, and the count at the cache's last read: the vectors are read again once
   * after each prepare() (which is when new ones can have been stored), not on every question.
   */
  private marks = 0;
  private readAt = -1;
  private retraining: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly hooks: MemoryVectorHooks,
  ) {}

  /** Vectors held in memory. */
  get size(): number {
    return this.cache?.ids.length ?? 0;
  }

  /** Whether the inverted-file index is built. */
  get indexed(): boolean {
    return this.cache?.clusters !== undefined;
  }

  /** Whether the inverted-file index over `model`'s vectors is built. */
  indexedFor(model: string): boolean {
    return this.cache?.model === model && this.cache.clusters !== undefined;
  }

  /** New vectors may have been stored (a prepare() ended): the next scan reads them first. */
  markStale(): void {
    this.marks++;
  }

  /** Drops the vectors held (a new model was trained: they are of the old one). */
  forget(): void {
    this.cache = undefined;
  }

  /** Long work here runs in slices (turns.ts): `slices.due()` says when to pause(). */
  private readonly slices = new Slices();

  /** A turn of the event loop between slices of long work, and the place it notices a stop. */
  private async pause(): Promise<void> {
    await this.slices.yield();
    this.hooks.checkStopped();
  }

  /** The portable scan over the vectors kept in memory (two-stage for LSA, see vector-scan.ts). */
  async nearest(embedder: Embedder, query: Float32Array, kinds: ReadonlySet<string>, k: number) {
    const cache =
      this.cache?.model === embedder.model && this.readAt === this.marks
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
    cache.slots = IdSlots.of(cache.ids);
    clusters.renumber(order);
    cache.clusters = clusters;
    cache.trainedVectors = trainedVectors;
  }

  /**
   * Writes the vectors held, and their inverted-file index when it is built, to one file
   * (vector-table-file.ts) that another process can adopt(), with the engine's other state that
   * travels with them; false when nothing is held.
   */
  async writeTable(
    file: string,
    extras: Pick<VectorTableContents, 'engineState' | 'modelState'>,
  ): Promise<boolean> {
    const cache = this.cache;
    if (!cache) return false;
    const clusters = cache.clusters;
    const lists = new Int32Array(clusters ? cache.ids.length : 0);
    for (let slot = 0; slot < lists.length; slot++) lists[slot] = clusters?.listOf(slot) ?? -1;
    await writeVectorTable(file, {
      model: cache.model,
      dimensions: cache.dimensions,
      seq: cache.seq,
      trainedVectors: clusters ? cache.trainedVectors : 0,
      ids: cache.ids,
      kinds: cache.kinds,
      seqs: cache.seqs,
      lists,
      centroids: clusters?.centroids ?? new Float32Array(0),
      data: cache.data,
      ...extras,
    });
    return true;
  }

  /**
   * Takes over the vectors and the index another process built and wrote (writeTable()), in place
   * of reading them from the database: the vectors go straight into this process's table, and
   * only what the file does not hold (vectors stored after it was written) is read afterwards.
   * The slots keep the writer's order, which its index had already grouped list by list. Returns
   * how many vectors it took and the extras written with them.
   */
  async adopt(
    file: string,
  ): Promise<{ vectors: number; model: string } & Pick<VectorTableContents, 'engineState' | 'modelState'>> {
    let simd: SimdVectors | undefined;
    const table = await readVectorTable(file, (floats, dimensions) => {
      simd = SimdVectors.create(dimensions, floats);
      return simd?.data ?? new Float32Array(floats);
    });
    this.hooks.checkStopped();
    const cache: VectorCache = {
      model: table.model,
      seq: table.seq,
      dimensions: table.dimensions,
      slots: new IdSlots(table.ids.length),
      ids: [],
      kinds: [],
      seqs: [],
      storedLists: [],
      data: table.data,
      simd: simd?.data === table.data ? simd : undefined,
      clusters: undefined,
      trainedVectors: table.trainedVectors,
    };
    // The file's sections become the cache's arrays a slice at a time: a hundred thousand slots
    // copied in one go hold the event loop for tens of milliseconds.
    for (let slot = 0; slot < table.ids.length; slot++) {
      const id = table.ids[slot] ?? 0;
      cache.ids.push(id);
      cache.seqs.push(table.seqs[slot] ?? 0);
      cache.kinds.push(table.kindNames[table.kindCodes[slot] ?? 0] ?? '');
      if (slot < table.lists.length) cache.storedLists.push(table.lists[slot] ?? -1);
      cache.slots.set(id, slot);
      if (this.slices.due()) await this.pause();
    }
    if (table.centroids.length > 0 && table.lists.length === cache.ids.length) {
      const clusters = ClusterIndex.fromCentroids(cache.dimensions, table.centroids);
      for (let slot = 0; slot < cache.ids.length; slot++) {
        const list = table.lists[slot] ?? -1;
        if (list >= 0 && list < clusters.size) clusters.place(slot, list);
        else clusters.assign(cache, slot);
        if (this.slices.due()) await this.pause();
      }
      cache.clusters = clusters;
    }
    this.cache = cache;
    this.readAt = this.marks;
    return {
      vectors: cache.ids.length,
      model: table.model,
      engineState: table.engineState,
      modelState: table.modelState,
    };
  }

  /**
   * Loads the vectors into memory and, on a large corpus, the inverted-file index over them: the
   * stored one (migration 0023-search-ivf) unless ivfRebuildReason() says it must be trained
   * again, else trained here, yielding to the event loop as it goes (prepare() calls it; a server
   * runs it at start).
   */
  async build(embedder: Embedder): Promise<void> {
    const cache = await this.loadCache(embedder);
    if (cache.clusters || cache.ids.length < (this.hooks.ivfMinVectors ?? IVF_MIN_VECTORS)) return;
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
      if (this.slices.due()) await this.pause();
    }
    // Vectors stored after the index was saved (by this process before a restart, or another one).
    const assignments = unassigned.map((slot) => this.assignment(cache, clusters, slot));
    for (let slot = 0; slot < cache.ids.length; slot++) {
      similarity += clusters.similarity(cache, slot);
      if (this.slices.due()) await this.pause();
    }
    if (this.cache !== cache) return false;
    const reason = ivfRebuildReason(stored, cache.ids.length, similarity / Math.max(1, cache.ids.length));
    if (reason) {
      this.hooks.onProgress?.(`vector-index stale: ${reason}`, cache.ids.length, stored.trainedVectors);
      return false;
    }
    await saveIvfAssignments(this.db, cache.model, assignments);
    if (this.cache !== cache) return false;
    this.install(cache, clusters, stored.trainedVectors);
    this.hooks.onProgress?.('vector-index loaded', cache.ids.length, (Date.now() - started) / 1000);
    return true;
  }

  /**
   * Trains the index over the cache (replacing the one in use, which keeps answering until this
   * one is done) and stores it.
   */
  private async trainIndex(cache: VectorCache): Promise<void> {
    const started = Date.now();
    this.hooks.onProgress?.('vector-index', 0, cache.ids.length);
    const lists = Math.min(IVF_MAX_LISTS, Math.ceil(Math.sqrt(cache.ids.length)));
    // The k-means in a thread of its own: on the warm-up's process this thread also holds the
    // database's write lock for its writes, and on the API's it answers requests.
    const clusters = await ClusterIndex.buildOffThread(cache, lists, {
      sample: IVF_SAMPLE,
      iterations: IVF_ITERATIONS,
      pause: () => this.pause(),
      due: () => this.slices.due(),
    });
    if (this.cache !== cache) return;
    // Vectors that arrived while it was built join their lists now.
    for (let slot = 0; slot < cache.ids.length; slot++) {
      if (clusters.listOf(slot) < 0) clusters.assign(cache, slot);
      if (this.slices.due()) await this.pause();
    }
    if (this.cache !== cache) return;
    const trainedVectors = cache.ids.length;
    let similarity = 0;
    const assignments: IvfAssignment[] = [];
    for (let slot = 0; slot < trainedVectors; slot++) {
      if (this.slices.due()) await this.pause();
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
    this.hooks.onProgress?.('vector-index', cache.ids.length, Math.round((Date.now() - started) / 1000));
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
        slots: new IdSlots(),
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
    const marks = this.marks;
    const assignments: IvfAssignment[] = [];
    const batch = new SlicedBatch(200, 5_000);
    for (;;) {
      this.hooks.checkStopped();
      const started = performance.now();
      const rows = await vectorsSince(this.db, embedder.model, cache.seq, batch.size);
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
      batch.took(rows.length, performance.now() - started);
      if (this.slices.due()) await this.pause();
    }
    await saveIvfAssignments(this.db, cache.model, assignments);
    this.readAt = marks;
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
        this.hooks.onProgress?.(
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
