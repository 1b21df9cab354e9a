// Per-account request counting in fixed one-minute windows, behind an interface that a shared
// store (Redis, the database) can implement for several instances.

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window ends (ms since epoch). */
  resetAt: number;
}

export interface RateLimitStore {
  hit(key: string, now: number, windowMs: number): Promise<RateLimitHit>;
}

/** The in-process store: one counter per key and window; old windows are dropped as time moves. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, RateLimitHit>();
  private lastSweep = 0;

  async hit(key: string, now: number, windowMs: number): Promise<RateLimitHit> {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const resetAt = windowStart + windowMs;
    this.sweep(now, windowMs);
    const current = this.windows.get(key);
    if (!current || current.resetAt !== resetAt) {
      const fresh = { count: 1, resetAt };
      this.windows.set(key, fresh);
      return { ...fresh };
    }
    current.count += 1;
    return { ...current };
  }

  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}
