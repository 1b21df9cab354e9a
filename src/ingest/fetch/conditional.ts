// Conditional requests for listings (RFC 9110 §13): a listing answered with an ETag or a
// Last-Modified is asked for again with If-None-Match / If-Modified-Since, and a 304 says nothing
// changed, so a source can be polled every few minutes for the price of a header exchange.
//
// A listing's validators are only worth trusting for what was read from it: they are kept with the
// earliest filing date the run listed from (`listedSince`), and become the next run's condition
// only once the run has recorded every document the listing named (`commit`). A run that stops
// before that asks unconditionally next time; a run reading from an earlier date does too.

/** What a listing URL answered last time, as kept in storage. */
export interface ListingValidator {
  url: string;
  etag: string | null;
  lastModified: string | null;
  listedSince: string;
}

/** Where kept validators come from and go to (storage, in the pipeline). */
export interface ValidatorStore {
  save(validator: ListingValidator, changed: boolean, at: string): Promise<void>;
}

export class ListingValidators {
  private readonly known: Map<string, ListingValidator>;
  /** Answers of this run, kept once the listing's documents are recorded. */
  private readonly pending = new Map<string, { validator: ListingValidator; changed: boolean }>();
  private since: string | null = null;
  /** Listings that answered 304 in this run. */
  notModified = 0;

  constructor(
    known: readonly ListingValidator[],
    private readonly store: ValidatorStore,
  ) {
    this.known = new Map(known.map((validator) => [validator.url, validator]));
  }

  /** The earliest filing date this run lists from (conditions are asked only when the kept ones cover it). */
  listingFrom(since: string): void {
    this.since = since;
  }

  /** The headers that ask whether `url` changed since it was last read whole; none when unknown. */
  conditions(url: string): Record<string, string> {
    const kept = this.known.get(url);
    if (!kept || this.since === null || kept.listedSince > this.since) return {};
    const headers: Record<string, string> = {};
    if (kept.etag) headers['if-none-match'] = kept.etag;
    if (kept.lastModified) headers['if-modified-since'] = kept.lastModified;
    return headers;
  }

  /** What `url` answered: 304 (nothing changed) or a full answer with its validators. */
  answered(url: string, status: number, etag: string | null, lastModified: string | null): void {
    const since = this.since;
    if (since === null) return;
    if (status === 304) {
      this.notModified += 1;
      const kept = this.known.get(url);
      if (kept) this.pending.set(url, { validator: kept, changed: false });
      return;
    }
    if (status !== 200 || (etag === null && lastModified === null)) return;
    this.pending.set(url, { validator: { url, etag, lastModified, listedSince: since }, changed: true });
  }

  /** The listing's documents are recorded: its answers become the next run's conditions. */
  async commit(at: string): Promise<void> {
    for (const [url, { validator, changed }] of this.pending) {
      await this.store.save(validator, changed, at);
      this.known.set(url, validator);
    }
    this.pending.clear();
  }
}
