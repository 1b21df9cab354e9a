// Long search work (indexing documents, embedding them, building the vector index) runs in the
// API process and, on SQLite, never waits on I/O: without a turn of the event loop between its
// chunks no request would be answered until it ends. A request that arrives meanwhile waits for
// the chunk in hand, so the chunks are cut by time (SLICE_MS), not by a count of rows: a count
// that is quick on one source (a filing) is slow on another (a member, with their trades).

/**
 * How long background work runs before it lets the event loop answer what is waiting: the most
 * a request waits behind it. Small against a warm /trades call's p99 of a few milliseconds and
 * large against a turn's own cost (a few microseconds).
 */
export const SLICE_MS = 4;

/** Lets the event loop answer what is waiting (requests, timers) before the work goes on. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Work cut into slices of about SLICE_MS with a turn of the event loop between them. */
export class Slices {
  private started = performance.now();

  /** Whether the slice in hand has run its time. Synchronous and cheap: call it in a hot loop. */
  due(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  /** A turn of the event loop, and a new slice. */
  async yield(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }

  /** A turn of the event loop when the slice in hand has run its time. */
  async tick(): Promise<void> {
    if (this.due()) await this.yield();
  }
}

/**
 * How many rows the next batch of a read-and-handle loop takes so that a batch lasts about one
 * slice: starts at `min`, then follows the time per row the batches so far took (never below
 * `min`, never above `max`). `size` is the batch to ask for; `took` reports how one went.
 */
export class SlicedBatch {
  size: number;

  constructor(
    private readonly min: number,
    private readonly max: number,
  ) {
    this.size = min;
  }

  took(rows: number, ms: number): void {
    if (rows <= 0) return;
    const perRow = Math.max(ms, 0.01) / rows;
    const fits = Math.floor(SLICE_MS / perRow);
    // Half-way to what fits: one slow batch (a page read from disk, a collection) does not
    // shrink the next to nothing, nor one quick batch blow it up.
    const next = Math.round((this.size + fits) / 2);
    this.size = Math.min(this.max, Math.max(this.min, next));
  }
}
