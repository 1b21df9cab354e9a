// How every connector talks to a source site: timeouts, retries with exponential backoff and
// jitter (network errors, 429 and 5xx, honouring Retry-After), and a polite minimum interval
// between requests to the same host. Cookies are kept per client for sites with session flows.
// Every answer's body is read as a stream and given up past a size limit, so one huge or endless
// document costs at most the limit in memory, never the whole process.

import type { ListingValidators } from './conditional.js';

export interface HttpClientOptions {
  /** Per-request timeout. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** Minimum time between two requests to the same host. */
  minIntervalMs: number;
  /** First backoff delay; doubles per retry, with ±50% jitter. */
  backoffMs: number;
  userAgent: string;
  /** Largest body accepted (bytes); a longer one is refused with DocumentTooLargeError. Default: no limit. */
  maxBytes?: number;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export class FetchError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** An answer longer than the client's limit: its reading was stopped at the limit, not retried. */
export class DocumentTooLargeError extends FetchError {
  constructor(
    url: string,
    status: number,
    readonly limitBytes: number,
    /** What the server announced (Content-Length), when it did. */
    readonly announcedBytes: number | null,
  ) {
    super(
      `${url}: the document is larger than the limit of ${formatBytes(limitBytes)}${
        announcedBytes === null ? '' : ` (announced ${formatBytes(announcedBytes)})`
      }; it was not read`,
      url,
      status,
    );
  }
}

/** "25 MB", "300 kB", "12 bytes": for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} kB`;
  return `${bytes} bytes`;
}

export interface FetchedDocument {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The answer's validators (ETag, Last-Modified), for conditional requests of listings. */
  etag?: string | null;
  lastModified?: string | null;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** application/json body (USAspending's search endpoints take JSON posts). */
  json?: unknown;
  /** Statuses that are answers, not failures (e.g. 404 for a document that is not there yet). */
  acceptStatuses?: readonly number[];
  /** Stops waiting and retrying (a run being shut down). */
  signal?: AbortSignal;
  /** Overrides the client's body limit for this request. */
  maxBytes?: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class HttpClient {
  private readonly lastRequestAt = new Map<string, number>();
  private readonly cookies = new Map<string, string>();

  constructor(private readonly options: HttpClientOptions) {}

  /** The body limit of every request (bytes), for a caller that gathers several answers into one document. */
  get maxBytes(): number | undefined {
    return this.options.maxBytes;
  }

  async get(url: string, options: Omit<RequestOptions, 'method' | 'form'> = {}): Promise<FetchedDocument> {
    return this.request(url, { ...options, method: 'GET' });
  }

  async request(url: string, options: RequestOptions = {}): Promise<FetchedDocument> {
    const sleep = this.options.sleep ?? defaultSleep;
    let lastError: FetchError | undefined;
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      options.signal?.throwIfAborted();
      await this.waitForTurn(url, sleep);
      try {
        const response = await this.send(url, options);
        if (response.status < 400 || options.acceptStatuses?.includes(response.status)) return response;
        lastError = new FetchError(`${url} answered ${response.status}`, url, response.status);
        if (response.status !== 429 && response.status < 500) throw lastError;
        if (attempt < this.options.retries) await sleep(this.retryDelay(attempt, response.retryAfterMs));
      } catch (error) {
        if (options.signal?.aborted) throw error;
        // The same document would be as large on every attempt.
        if (error instanceof DocumentTooLargeError) throw error;
        if (
          error instanceof FetchError &&
          error.status !== null &&
          error.status < 500 &&
          error.status !== 429
        )
          throw error;
        lastError =
          error instanceof FetchError
            ? error
            : new FetchError(`${url}: ${(error as Error).message}`, url, null);
        if (attempt < this.options.retries) await sleep(this.retryDelay(attempt, undefined));
      }
    }
    throw lastError ?? new FetchError(`${url}: failed`, url, null);
  }

  private async send(
    url: string,
    options: RequestOptions,
  ): Promise<FetchedDocument & { retryAfterMs?: number }> {
    const signal = options.signal
      ? AbortSignal.any([options.signal, AbortSignal.timeout(this.options.timeoutMs)])
      : AbortSignal.timeout(this.options.timeoutMs);
    let method = options.method ?? 'GET';
    let body: string | undefined = options.form
      ? new URLSearchParams(options.form).toString()
      : options.json !== undefined
        ? JSON.stringify(options.json)
        : undefined;
    const contentType = options.form ? 'application/x-www-form-urlencoded' : 'application/json';
    let current = url;
    // Redirects are followed here rather than by fetch, so that cookies set on a redirect (a
    // session started by a form post) are kept, as a browser would.
    for (let hop = 0; ; hop++) {
      const host = new URL(current).host;
      const headers: Record<string, string> = { 'user-agent': this.options.userAgent, ...options.headers };
      const cookie = this.cookies.get(host);
      if (cookie) headers.cookie = cookie;
      if (body !== undefined) headers['content-type'] = contentType;
      const response = await fetch(current, { method, headers, body, redirect: 'manual', signal });
      this.keepCookies(host, response.headers);
      const location = response.headers.get('location');
      if (REDIRECTS.has(response.status) && location && hop < MAX_REDIRECTS) {
        await response.body?.cancel();
        current = new URL(location, current).toString();
        if (response.status !== 307 && response.status !== 308) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const bytes = await readBody(response, current, options.maxBytes ?? this.options.maxBytes);
      const retryAfter = response.headers.get('retry-after');
      return {
        url: current,
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        body: bytes,
        retryAfterMs: retryAfter ? parseRetryAfter(retryAfter) : undefined,
        etag: response.headers.get('etag'),
        lastModified: response.headers.get('last-modified'),
      };
    }
  }

  /**
   * A listing, asked conditionally when `validators` kept its ETag / Last-Modified: status 304
   * (empty body) means it did not change since it was last read whole.
   */
  async getListing(
    url: string,
    validators: ListingValidators | undefined,
    options: Omit<RequestOptions, 'method' | 'form'> = {},
  ): Promise<FetchedDocument> {
    const conditions = validators?.conditions(url) ?? {};
    const response = await this.get(url, {
      ...options,
      headers: { ...options.headers, ...conditions },
      acceptStatuses: [...(options.acceptStatuses ?? []), 304],
    });
    validators?.answered(url, response.status, response.etag ?? null, response.lastModified ?? null);
    return response;
  }

  private keepCookies(host: string, headers: Headers): void {
    const setCookies = headers.getSetCookie?.() ?? [];
    if (setCookies.length === 0) return;
    const jar = new Map(
      (this.cookies.get(host) ?? '')
        .split('; ')
        .filter(Boolean)
        .map((pair) => pair.split('=') as [string, string]),
    );
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq <= 0) continue;
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    this.cookies.set(host, [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
  }

  /** The value of a cookie this client holds for a host (e.g. a CSRF token). */
  cookie(host: string, name: string): string | undefined {
    for (const pair of (this.cookies.get(host) ?? '').split('; ')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq) === name) return pair.slice(eq + 1);
    }
    return undefined;
  }

  private async waitForTurn(url: string, sleep: (ms: number) => Promise<void>): Promise<void> {
    const host = new URL(url).host;
    const last = this.lastRequestAt.get(host);
    const now = Date.now();
    if (last !== undefined && now - last < this.options.minIntervalMs)
      await sleep(this.options.minIntervalMs - (now - last));
    this.lastRequestAt.set(host, Date.now());
  }

  private retryDelay(attempt: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) return retryAfterMs;
    const random = this.options.random ?? Math.random;
    const base = this.options.backoffMs * 2 ** attempt;
    return Math.round(base * (0.5 + random()));
  }
}

/**
 * The body, read chunk by chunk: past `limit` bytes (announced or received) the stream is cancelled,
 * which closes the connection, and DocumentTooLargeError says so.
 */
async function readBody(response: Response, url: string, limit: number | undefined): Promise<Buffer> {
  const announced = Number(response.headers.get('content-length') ?? Number.NaN);
  const announcedBytes = Number.isSafeInteger(announced) && announced >= 0 ? announced : null;
  if (limit === undefined) return Buffer.from(await response.arrayBuffer());
  if (announcedBytes !== null && announcedBytes > limit) {
    await response.body?.cancel();
    throw new DocumentTooLargeError(url, response.status, limit, announcedBytes);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel();
      throw new DocumentTooLargeError(url, response.status, limit, announcedBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, received);
}

/** Retry-After is seconds or an HTTP date. */
export function parseRetryAfter(value: string, now = Date.now()): number | undefined {
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
