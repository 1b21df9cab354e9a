// Which slot of the in-memory vector table (vector-memory.ts) holds a document's vector: one entry
// per vector held, looked up for every vector read after the table was filled. A Map of numbers
// costs about 54 bytes an entry in the JavaScript heap; this table keeps the ids and the slots in
// two typed arrays (12 bytes a place, kept between 3/8 and 3/4 full: 16 to 32 bytes an entry)
// outside the heap the garbage collector walks.

/** Marks an empty entry: document ids are positive. */
const EMPTY = -1;
/** The table doubles once this share of its entries is taken (linear probing stays short below it). */
const MAX_LOAD = 0.75;

export class IdSlots {
  private keys: Float64Array;
  private values: Int32Array;
  private count = 0;

  constructor(expected = 0) {
    const capacity = IdSlots.capacityFor(expected);
    this.keys = new Float64Array(capacity).fill(EMPTY);
    this.values = new Int32Array(capacity);
  }

  /** The smallest power of two that holds `entries` below the load limit (at least 16). */
  private static capacityFor(entries: number): number {
    let capacity = 16;
    while (entries > capacity * MAX_LOAD) capacity *= 2;
    return capacity;
  }

  get size(): number {
    return this.count;
  }

  /** Where `id` is, or where it would go: the first empty entry of its probe sequence. */
  private find(id: number): number {
    const mask = this.keys.length - 1;
    // Fibonacci hashing: the top bits of the id times 2^32/φ, so that ids in a stride (every
    // 1,024th, say) spread as well as consecutive ones.
    const bits = 31 - Math.clz32(this.keys.length);
    let at = bits === 0 ? 0 : Math.imul((id | 0) ^ ((id / 4294967296) | 0), 0x9e3779b1) >>> (32 - bits);
    for (;;) {
      const key = this.keys[at] as number;
      if (key === id || key === EMPTY) return at;
      at = (at + 1) & mask;
    }
  }

  get(id: number): number | undefined {
    const at = this.find(id);
    return this.keys[at] === id ? this.values[at] : undefined;
  }

  set(id: number, slot: number): void {
    if (!Number.isSafeInteger(id) || id < 0)
      throw new RangeError(`document id ${id} is not a whole number ≥ 0`);
    let at = this.find(id);
    if (this.keys[at] !== id) {
      if (this.count + 1 > this.keys.length * MAX_LOAD) {
        this.grow();
        at = this.find(id);
      }
      this.keys[at] = id;
      this.count++;
    }
    this.values[at] = slot;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(keys.length * 2).fill(EMPTY);
    this.values = new Int32Array(keys.length * 2);
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at] as number;
      if (key === EMPTY) continue;
      const to = this.find(key);
      this.keys[to] = key;
      this.values[to] = values[at] as number;
    }
  }

  /** Slot i holds the vector of ids[i]. */
  static of(ids: readonly number[]): IdSlots {
    const table = new IdSlots(ids.length);
    ids.forEach((id, slot) => {
      table.set(id, slot);
    });
    return table;
  }
}
