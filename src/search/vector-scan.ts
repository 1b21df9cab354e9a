// The nearest vectors by cosine (dot product of unit vectors) among vectors held in memory: an
// exact scan, and an inverted-file index (ClusterIndex) so that one question on a large corpus
// scans a bounded share of the vectors instead of all of them.

export interface VectorTable {
  dimensions: number;
  /** Vector of slot s at data[s * dimensions, (s + 1) * dimensions). */
  data: Float32Array;
  ids: readonly number[];
  kinds: readonly string[];
}

function dot(data: Float32Array, base: number, query: Float32Array, length: number): number {
  let sum = 0;
  for (let j = 0; j < length; j++) sum += (data[base + j] ?? 0) * (query[j] ?? 0);
  return sum;
}

/**
 * An inverted-file index over a vector table (Jégou, Douze & Schmid 2011, "IVF"): spherical
 * k-means puts every vector in the list of its nearest centroid; a question scores the centroids
 * and scans only the `probe` lists nearest to it. Approximate: a neighbour in an unprobed list is
 * missed. Slots added after the build join their nearest list (assign()); the centroids and the
 * lists can be stored and put back (fromCentroids() and place()) instead of trained again.
 */
export class ClusterIndex {
  private readonly lists: number[][];
  /** The list of each slot; -1 (or past the end) while the slot is in none. */
  private readonly listOfSlot: number[] = [];

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
   * Trains `count` centroids on an evenly spread sample of the table and assigns every slot.
   * Yields to the event loop between chunks of work (`pause`), so a server keeps answering.
   */
  static async build(
    table: VectorTable,
    count: number,
    options: { sample: number; iterations: number; pause: () => Promise<void> },
  ): Promise<ClusterIndex> {
    const d = table.dimensions;
    const slots = table.ids.length;
    const step = Math.max(1, Math.floor(slots / Math.min(slots, options.sample)));
    const sample: number[] = [];
    for (let slot = 0; slot < slots; slot += step) sample.push(slot);
    const lists = Math.max(1, Math.min(count, sample.length));
    const centroids = new Float32Array(lists * d);
    const spread = sample.length / lists;
    for (let c = 0; c < lists; c++) {
      const slot = sample[Math.floor(c * spread)] ?? 0;
      centroids.set(table.data.subarray(slot * d, slot * d + d), c * d);
    }
    const index = new ClusterIndex(d, centroids);
    for (let round = 0; round < options.iterations; round++) {
      const sums = new Float32Array(lists * d);
      for (let at = 0; at < sample.length; at++) {
        const slot = sample[at] ?? 0;
        const c = index.nearestList(table.data, slot * d);
        for (let j = 0; j < d; j++)
          sums[c * d + j] = (sums[c * d + j] ?? 0) + (table.data[slot * d + j] ?? 0);
        if (at % 2_000 === 1_999) await options.pause();
      }
      for (let c = 0; c < lists; c++) {
        let norm = 0;
        for (let j = 0; j < d; j++) norm += (sums[c * d + j] ?? 0) ** 2;
        // A centroid no sample chose keeps its place.
        if (norm === 0) continue;
        norm = Math.sqrt(norm);
        for (let j = 0; j < d; j++) centroids[c * d + j] = (sums[c * d + j] ?? 0) / norm;
      }
    }
    for (let slot = 0; slot < slots; slot++) {
      index.assign(table, slot);
      if (slot % 2_000 === 1_999) await options.pause();
    }
    return index;
  }

  private nearestList(data: Float32Array, base: number): number {
    const d = this.dimensions;
    let best = 0;
    let bestDot = -Infinity;
    for (let c = 0; c < this.lists.length; c++) {
      let sum = 0;
      for (let j = 0; j < d; j++) sum += (this.centroids[c * d + j] ?? 0) * (data[base + j] ?? 0);
      if (sum > bestDot) {
        bestDot = sum;
        best = c;
      }
    }
    return best;
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
    const scores = this.lists.map((_, c) => ({ c, dot: dot(this.centroids, c * d, query, d) }));
    scores.sort((a, b) => b.dot - a.dot);
    return scores.slice(0, probe).map(({ c }) => this.lists[c] ?? []);
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
