// Retries of refused-for-now answers: 429 and 503 wait as Retry-After says (seconds or an HTTP
// date); network errors and other 5xx back off exponentially. Other answers return at once.

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  retries?: number;
  /** First back-off when the answer gives no Retry-After (default 500 ms, doubled per retry). */
  backoffMs?: number;
  /** Longest wait the client accepts; a longer Retry-After is returned to the caller (default 60 s). */
  maxDelayMs?: number;
  /** How to wait (tests may pass a fake). */
  sleep?: (ms: number) => Promise<void>;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** Milliseconds a Retry-After header asks for, or undefined. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function retryingFetch(
  baseFetch: (input: Request) => Promise<Response>,
  options: RetryOptions = {},
): (input: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (input) => {
    for (let attempt = 0; ; attempt += 1) {
      const request = input.clone();
      let response: Response;
      try {
        response = await baseFetch(request);
      } catch (error) {
        if (attempt >= retries) throw error;
        await sleep(backoffMs * 2 ** attempt);
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= retries) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      const wait = asked ?? backoffMs * 2 ** attempt;
      if (wait > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
