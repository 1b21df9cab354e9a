// The nearest vectors by cosine (dot product of unit vectors) among vectors held in memory: an
// exact scan, and an inverted-file index (ClusterIndex) so that one question on a large corpus
// scans a bounded share of the vectors instead of all of them.
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { threadModule } from '../threads.js';
import { type KMeansOptions, type KMeansResult, kMeans, nearestCentroid } from './kmeans.js';
import type { KMeansThreadData } from './kmeans-thread.js';
import { RUN_LIMIT, SimdVectors } from './simd-dots.js';

export interface VectorTable {
  dimensions: number;
  /** Vector of slot s at data[s * dimensions, (s + 1) * dimensions). */
  data: Float32Array;
  ids: readonly number[];
  kinds: readonly string[];
  /**
   * When `data` lives in WebAssembly memory (simd.holds(data)), nearest() scores the probed lists
   * there, four lanes at a time (simd-dots.ts).
   */
  simd?: SimdVectors | undefined;
}

/**
 * nearest() sums the first half of a vector's coordinates, then skips it when even a perfect rest
 * could not make it enter (the bound uses the length of the rest). LSA orders its coordinates by
 * singular value, so most of a vector's length is in its head: on the bench database 68% of the
 * scanned vectors stop there (a third of the multiplications saved; 37% stop after a third of
 * the coordinates, 86% after two thirds, which reads more of each).
 */
const NEAREST_HEAD_SHARE = 0.5;
/** Room for float rounding in that bound (similarities are within [-1, 1]). */
const BOUND_SLACK = 1e-6;

function dot(data: Float32Array, base: number, query: Float32Array, length: number): number {
  let sum = 0;
  for (let j = 0; j < length; j++) sum += (data[base + j] ?? 0) * (query[j] ?? 0);
  return sum;
}

/** Vectors between two pauses of ClusterIndex.build when the caller does not time them. */
const PAUSE_EVERY = 2_000;
/** How often ClusterIndex.buildOffThread pauses while its thread computes (where a stop is noticed). */
const THREAD_CHECK_MS = 50;
/** Vectors copied between two checks of the slice's time in ClusterIndex.buildOffThread. */
const COPY_SLOTS = 4_096;

/**
 * An inverted-file index over a vector table (Jégou, Douze & Schmid 2011, "IVF"): spherical
 * k-means puts every vector in the list of its nearest centroid; a question scores the centroids
 * and scans only the `probe` lists nearest to it. Approximate: a neighbour in an unprobed list is
 * missed. Slots added after the build join their nearest list (assign()); the centroids and the
 * lists can be stored and put back (fromCentroids() and place()) instead of trained again.
 */
export class ClusterIndex {
  private lists: number[][];
  /** The list of each slot; -1 (or past the end) while the slot is in none. */
  private listOfSlot: number[] = [];
  /** Each slot's kind as a small number (kindNames[code - 1]; 0: not looked up yet), for nearest(). */
  private kindOfSlot = new Uint8Array(0);
  /** Slots below this one have their kind code. */
  private coded = 0;
  /** Each slot's length past its first `tailHead` coordinates (nearest()'s bound), for slots below `tailed`... */
  private tailOfSlot = new Float32Array(0);
  private tailHead = -1;
  private tailed = 0;
  /** ...except these, placed again (their vector was written again) since it was measured. */
  private readonly stale = new Set<number>();
  private readonly kindNames: string[] = [];
  /** See centroidTable(). */
  private centroidSimd: SimdVectors | null | undefined;

  private constructor(
    readonly dimensions: number,
    readonly centroids: Float32Array,
  ) {
    this.lists = Array.from({ length: centroids.length / dimensions }, () => []);
  }

  /** An index with these centroids and empty lists (slots go in with place() or assign()). */
  static fromCentroids(dimensions: number, centroids: Float32Array): ClusterIndex {
    return new ClusterIndex(dimensions, centroids);
  }

  get size(): number {
    return this.lists.length;
  }

  /**
   * Trains `count` centroids on an evenly spread sample of the table and assigns every slot
   * (kmeans.ts). Yields to the event loop between chunks of work (`pause`), so a server keeps answering.
   */
  static async build(
    table: VectorTable,
    count: number,
    options: KMeansOptions & {
      pause: () => Promise<void>;
      /** Whether to pause now (a slice's time is up); without it, every PAUSE_EVERY vectors. */
      due?: () => boolean;
    },
  ): Promise<ClusterIndex> {
    let handled = 0;
    const due = options.due ?? (() => handled % PAUSE_EVERY === 0);
    const steps = kMeans(table.data, table.dimensions, table.ids.length, count, options);
    let step = steps.next();
    while (!step.done) {
      handled++;
      if (due()) await options.pause();
      step = steps.next();
    }
    return ClusterIndex.withLists(table.dimensions, step.value);
  }

  /**
   * The same index as build(), bit for bit, computed in a worker thread at a lower priority: the
   * calling thread only copies the vectors over (in chunks, pausing as build() does) and puts the
   * slots in their lists. For a process whose own thread has other work to do meanwhile (the
   * search warm-up's, which holds the database's write lock for its writes).
   */
  static async buildOffThread(
    table: VectorTable,
    count: number,
    options: KMeansOptions & { pause: () => Promise<void>; due: () => boolean },
  ): Promise<ClusterIndex> {
    const d = table.dimensions;
    const slots = table.ids.length;
    // A copy of its own to transfer: the table's data may be a view on WebAssembly memory.
    const data = new Float32Array(slots * d);
    for (let slot = 0; slot < slots; slot += COPY_SLOTS) {
      const end = Math.min(slots, slot + COPY_SLOTS) * d;
      data.set(table.data.subarray(slot * d, end), slot * d);
      if (options.due()) await options.pause();
    }
    const workerData: KMeansThreadData = {
      data,
      dimensions: d,
      slots,
      count,
      options: { sample: options.sample, iterations: options.iterations },
    };
    const worker = new Worker(new URL(threadModule(import.meta.url, 'kmeans-thread')), {
      workerData,
      transferList: [data.buffer],
    });
    let result: KMeansResult | undefined;
    const computed = new Promise<KMeansResult>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the k-means thread ended (exit code ${code}) without an index`)),
      );
    });
    try {
      // Paused now and then while the thread computes: a pause is where the caller notices a stop
      // (it throws), and the thread is ended then instead of running to its end.
      while (!result) {
        result = await Promise.race([computed, sleep(THREAD_CHECK_MS).then(() => undefined)]);
        if (!result) await options.pause();
      }
    } finally {
      if (!result) await worker.terminate();
    }
    const index = new ClusterIndex(d, result.centroids);
    for (let slot = 0; slot < slots; slot++) {
      index.place(slot, result.lists[slot] ?? 0);
      if (options.due()) await options.pause();
    }
    return index;
  }

  /** An index with these centroids and every slot in the list `lists` gives it. */
  private static withLists(dimensions: number, { centroids, lists }: KMeansResult): ClusterIndex {
    const index = new ClusterIndex(dimensions, centroids);
    for (let slot = 0; slot < lists.length; slot++) index.place(slot, lists[slot] ?? 0);
    return index;
  }

  private nearestList(data: Float32Array, base: number): number {
    return nearestCentroid(this.centroids, this.lists.length, this.dimensions, data, base);
  }

  /** The list a slot is in, or -1. */
  listOf(slot: number): number {
    return this.listOfSlot[slot] ?? -1;
  }

  /** Puts a slot in `list` (moving it out of the list it was in). */
  place(slot: number, list: number): void {
    const target = this.lists[list];
    if (!target) throw new RangeError(`no list ${list} in an index of ${this.lists.length}`);
    const previous = this.listOf(slot);
    // Placed again: its vector may have been written again.
    if (slot < this.tailed) this.stale.add(slot);
    if (previous === list) return;
    if (previous >= 0) {
      const members = this.lists[previous] ?? [];
      const at = members.indexOf(slot);
      if (at >= 0) members.splice(at, 1);
    }
    while (this.listOfSlot.length < slot) this.listOfSlot.push(-1);
    this.listOfSlot[slot] = list;
    target.push(slot);
  }

  /** Puts one slot of the table into its nearest list (moving it when its vector changed); returns the list. */
  assign(table: VectorTable, slot: number): number {
    const list = this.nearestList(table.data, slot * this.dimensions);
    this.place(slot, list);
    return list;
  }

  /** Cosine of a slot's vector to the centroid of its list (-1 when it is in none). */
  similarity(table: VectorTable, slot: number): number {
    const list = this.listOf(slot);
    if (list < 0) return -1;
    return dot(
      table.data,
      slot * this.dimensions,
      this.centroids.subarray(list * this.dimensions),
      this.dimensions,
    );
  }

  /**
   * The `probe` lists whose centroids are nearest to `query` (their slots, list by list: handed
   * to nearestInTable as they are, never concatenated).
   */
  candidates(query: Float32Array, probe: number): (readonly number[])[] {
    const d = this.dimensions;
    const count = this.lists.length;
    const scores = new Float32Array(count);
    const simd = this.centroidTable();
    if (simd) {
      simd.setQuery(query);
      for (let first = 0; first < count; first += RUN_LIMIT) {
        const run = Math.min(RUN_LIMIT, count - first);
        scores.set(simd.dotRun(first, run).subarray(0, run), first);
      }
    } else {
      for (let c = 0; c < count; c++) scores[c] = dot(this.centroids, c * d, query, d);
    }
    // The best `probe` lists, kept in order as the scores come (ties by list number): cheaper
    // than sorting every list.
    const kept: number[] = [];
    const scoreOf = (at: number) => scores[kept[at] as number] as number;
    for (let c = 0; c < count && probe > 0; c++) {
      const score = scores[c] as number;
      if (kept.length === probe) {
        if (score <= scoreOf(probe - 1)) continue;
        kept.pop();
      }
      let at = kept.length;
      while (at > 0 && score > scoreOf(at - 1)) at--;
      kept.splice(at, 0, c);
    }
    return kept.map((c) => this.lists[c] ?? []);
  }

  /**
   * The centroids copied into WebAssembly memory for the SIMD dot products (null where SIMD is
   * missing), made at the first question: the centroids are final once build() or fromCentroids()
   * has returned the index.
   */
  private centroidTable(): SimdVectors | null {
    if (this.centroidSimd === undefined) {
      const simd = SimdVectors.create(this.dimensions, this.centroids.length) ?? null;
      simd?.data.set(this.centroids);
      this.centroidSimd = simd;
    }
    return this.centroidSimd;
  }

  /**
   * The k nearest vectors of the wanted kinds among the slots of the `probe` lists nearest to
   * `query`, by exact dot product: what nearestInTable gives for candidates(query, probe), in a
   * tighter loop (kinds compared as small numbers, four running sums, and a vector whose first
   * half cannot bring it into the k best, whatever its rest, left there). Fastest once the table is
   * in listOrder(): a list's vectors are then next to each other in memory and the scan streams
   * through them instead of jumping from slot to slot.
   */
  nearest(
    table: VectorTable,
    query: Float32Array,
    kinds: ReadonlySet<string>,
    k: number,
    probe: number,
  ): { id: number; similarity: number }[] {
    const d = this.dimensions;
    const data = table.data;
    const ids = table.ids;
    const best = new TopK(k);
    const codes = this.kindCodes(table);
    const wanted = new Uint8Array(this.kindNames.length + 1);
    this.kindNames.forEach((kind, i) => {
      if (kinds.has(kind)) wanted[i + 1] = 1;
    });
    const simd = table.simd;
    if (simd?.holds(data) && simd.dimensions === d) {
      simd.setQuery(query);
      for (const members of this.candidates(query, probe)) {
        // A list's slots are mostly consecutive once the table is in listOrder(): each run of
        // consecutive slots is one call, its whole vectors scored (no bound needed at this speed).
        let at = 0;
        while (at < members.length) {
          const first = members[at] as number;
          let count = 1;
          while (at + count < members.length && members[at + count] === first + count && count < RUN_LIMIT)
            count++;
          const dots = simd.dotRun(first, count);
          // Most scores are below the k-th best kept: they are passed over before their kind is read.
          let floor = best.floor();
          for (let r = 0; r < count; r++) {
            const score = dots[r] as number;
            if (score < floor) continue;
            const slot = first + r;
            if (wanted[codes[slot] as number] !== 1) continue;
            best.offer(score, slot, ids[slot] as number);
            floor = best.floor();
          }
          at += count;
        }
      }
      return best.sorted();
    }
    // A multiple of four, for the unrolled loop.
    const h = Math.floor((d * NEAREST_HEAD_SHARE) / 4) * 4;
    const tails = this.tailNorms(table, h);
    let queryTail = 0;
    for (let j = h; j < d; j++) queryTail += (query[j] as number) ** 2;
    queryTail = Math.sqrt(queryTail);
    for (const members of this.candidates(query, probe)) {
      for (let at = 0; at < members.length; at++) {
        const slot = members[at] as number;
        if (wanted[codes[slot] as number] !== 1) continue;
        const base = slot * d;
        // Four independent sums: the CPU overlaps their additions (one sum waits on each).
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let j = 0;
        for (; j < h; j += 4) {
          s0 += (data[base + j] as number) * (query[j] as number);
          s1 += (data[base + j + 1] as number) * (query[j + 1] as number);
          s2 += (data[base + j + 2] as number) * (query[j + 2] as number);
          s3 += (data[base + j + 3] as number) * (query[j + 3] as number);
        }
        // Cauchy-Schwarz: the rest of the sum is at most |vector's tail| * |query's tail|. When
        // even that cannot reach the k-th best kept, the vector cannot enter (exact, not approximate).
        if (s0 + s1 + s2 + s3 + (tails[slot] as number) * queryTail + BOUND_SLACK < best.floor()) continue;
        for (; j + 3 < d; j += 4) {
          s0 += (data[base + j] as number) * (query[j] as number);
          s1 += (data[base + j + 1] as number) * (query[j + 1] as number);
          s2 += (data[base + j + 2] as number) * (query[j + 2] as number);
          s3 += (data[base + j + 3] as number) * (query[j + 3] as number);
        }
        for (; j < d; j++) s0 += (data[base + j] as number) * (query[j] as number);
        best.offer(s0 + s1 + s2 + s3, slot, ids[slot] as number);
      }
    }
    return best.sorted();
  }

  /**
   * Each slot's length past its first `head` coordinates, computed when first needed and again
   * after the slot is placed (place() is where a rewritten vector comes back; it marks it stale).
   */
  private tailNorms(table: VectorTable, head: number): Float32Array {
    const slots = table.ids.length;
    if (this.tailHead !== head) {
      this.tailed = 0;
      this.tailHead = head;
    }
    if (this.tailOfSlot.length < slots) {
      const grown = new Float32Array(Math.max(slots, this.tailOfSlot.length * 2));
      grown.set(this.tailOfSlot);
      this.tailOfSlot = grown;
    }
    const tails = this.tailOfSlot;
    const d = this.dimensions;
    const measure = (slot: number) => {
      let sum = 0;
      for (let j = slot * d + head; j < slot * d + d; j++) sum += (table.data[j] as number) ** 2;
      tails[slot] = Math.sqrt(sum);
    };
    for (const slot of this.stale) if (slot < this.tailed) measure(slot);
    this.stale.clear();
    for (let slot = this.tailed; slot < slots; slot++) measure(slot);
    this.tailed = slots;
    return tails;
  }

  /** Each slot's kind code, looked up once per slot (a slot's kind never changes). */
  private kindCodes(table: VectorTable): Uint8Array {
    const slots = table.ids.length;
    if (this.kindOfSlot.length < slots) {
      const grown = new Uint8Array(Math.max(slots, this.kindOfSlot.length * 2));
      grown.set(this.kindOfSlot);
      this.kindOfSlot = grown;
    }
    const codes = this.kindOfSlot;
    for (let slot = this.coded; slot < slots; slot++) {
      if (codes[slot] !== 0) continue;
      const kind = table.kinds[slot] as string;
      let code = this.kindNames.indexOf(kind) + 1;
      if (code === 0) {
        if (this.kindNames.length >= 255) throw new RangeError('more than 255 kinds of document');
        code = this.kindNames.push(kind);
      }
      codes[slot] = code;
    }
    this.coded = Math.max(this.coded, slots);
    return codes;
  }

  /**
   * Every slot in a list, list by list (in each list by slot), then the slots in none: the order
   * to renumber the table in (permuteTable) so that each list's vectors lie together.
   */
  listOrder(slots: number): Int32Array {
    const order = new Int32Array(slots);
    let at = 0;
    for (const members of this.lists) {
      for (const slot of [...members].sort((a, b) => a - b)) if (slot < slots) order[at++] = slot;
    }
    for (let slot = 0; slot < slots; slot++) if (this.listOf(slot) < 0) order[at++] = slot;
    return order;
  }

  /** Follows a renumbering of the table: new slot i is old slot order[i]. */
  renumber(order: Int32Array): void {
    const newSlot = new Int32Array(order.length);
    order.forEach((old, slot) => {
      newSlot[old] = slot;
    });
    const listOfSlot: number[] = [];
    const kindOfSlot = new Uint8Array(Math.max(order.length, this.kindOfSlot.length));
    order.forEach((old, slot) => {
      listOfSlot[slot] = this.listOf(old);
      kindOfSlot[slot] = this.kindOfSlot[old] ?? 0;
    });
    this.listOfSlot = listOfSlot;
    this.kindOfSlot = kindOfSlot;
    // A slot renumbered below `coded` may not have had its code yet: looked over again once; the
    // tail lengths are measured again.
    this.coded = 0;
    this.tailed = 0;
    this.stale.clear();
    this.lists = this.lists.map((members) =>
      members.map((slot) => newSlot[slot] ?? slot).sort((a, b) => a - b),
    );
  }
}

/**
 * Renumbers a table's vectors in place so that new slot i holds what old slot order[i] held
 * (order: a permutation of 0..n-1). Follows each cycle of the permutation with one vector of
 * scratch space, so it needs no second copy of the table. The caller renumbers everything else
 * indexed by slot (ids, kinds, an index's lists).
 */
export function permuteVectors(data: Float32Array, dimensions: number, order: Int32Array): void {
  const d = dimensions;
  const done = new Uint8Array(order.length);
  const scratch = new Float32Array(d);
  for (let start = 0; start < order.length; start++) {
    if (done[start] === 1) continue;
    // Slot `start` will hold order[start]'s vector, which will hold order[order[start]]'s, ...
    scratch.set(data.subarray(start * d, start * d + d));
    let slot = start;
    for (;;) {
      done[slot] = 1;
      const from = order[slot] as number;
      if (from === start) {
        data.set(scratch, slot * d);
        break;
      }
      data.copyWithin(slot * d, from * d, from * d + d);
      slot = from;
    }
  }
}

/**
 * The k best (similarity, slot) pairs seen: a binary min-heap whose root is the worst kept, so a
 * candidate that cannot enter costs one comparison. Worse means lower similarity, then higher id
 * (the order results are given in).
 */
class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private readonly ids: Float64Array;
  size = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(k);
    this.slots = new Int32Array(k);
    this.ids = new Float64Array(k);
  }

  private worse(a: number, b: number): boolean {
    const sa = this.scores[a] as number;
    const sb = this.scores[b] as number;
    return sa < sb || (sa === sb && (this.ids[a] as number) > (this.ids[b] as number));
  }

  private swap(a: number, b: number): void {
    const score = this.scores[a] as number;
    const slot = this.slots[a] as number;
    const id = this.ids[a] as number;
    this.scores[a] = this.scores[b] as number;
    this.slots[a] = this.slots[b] as number;
    this.ids[a] = this.ids[b] as number;
    this.scores[b] = score;
    this.slots[b] = slot;
    this.ids[b] = id;
  }

  offer(score: number, slot: number, id: number): void {
    if (this.k === 0) return;
    if (this.size < this.k) {
      let at = this.size++;
      this.scores[at] = score;
      this.slots[at] = slot;
      this.ids[at] = id;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.worse(at, parent)) break;
        this.swap(at, parent);
        at = parent;
      }
      return;
    }
    const root = this.scores[0] as number;
    if (score < root || (score === root && id > (this.ids[0] as number))) return;
    this.scores[0] = score;
    this.slots[0] = slot;
    this.ids[0] = id;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < this.size && this.worse(left, worst)) worst = left;
      if (right < this.size && this.worse(right, worst)) worst = right;
      if (worst === at) break;
      this.swap(at, worst);
      at = worst;
    }
  }

  /** The similarity a candidate must reach to be kept: the worst kept once k are. */
  floor(): number {
    if (this.k === 0) return Number.POSITIVE_INFINITY;
    return this.size < this.k ? Number.NEGATIVE_INFINITY : (this.scores[0] as number);
  }

  /** Best first. */
  sorted(): { id: number; similarity: number }[] {
    const found: { id: number; similarity: number }[] = [];
    for (let at = 0; at < this.size; at++)
      found.push({ id: this.ids[at] as number, similarity: this.scores[at] as number });
    return found.sort((a, b) => b.similarity - a.similarity || a.id - b.id);
  }
}

/**
 * The k nearest vectors of the wanted kinds among the slots of `groups` (all of the table when
 * omitted), by exact dot product. The hot loop of the vector side: no allocation per slot.
 */
export function nearestInTable(
  table: VectorTable,
  query: Float32Array,
  kinds: ReadonlySet<string>,
  k: number,
  groups?: readonly (readonly number[])[],
): { id: number; similarity: number }[] {
  const d = table.dimensions;
  const data = table.data;
  const best = new TopK(k);
  const consider = (slot: number) => {
    if (!kinds.has(table.kinds[slot] as string)) return;
    const base = slot * d;
    let sum = 0;
    for (let j = 0; j < d; j++) sum += (data[base + j] as number) * (query[j] as number);
    best.offer(sum, slot, table.ids[slot] as number);
  };
  if (groups) {
    for (const group of groups) for (const slot of group) consider(slot);
  } else {
    for (let slot = 0; slot < table.ids.length; slot++) consider(slot);
  }
  return best.sorted();
}
