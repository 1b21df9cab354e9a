// GET /bulk/trades as a stream of typed trades: the NDJSON file read line by line while it downloads,
// so the whole history never has to sit in memory at once.
import type { components } from './openapi.js';

type Trade = components['schemas']['Trade'];

export interface BulkTradesOptions {
  /** The API's address, e.g. https://api.example.org. */
  baseUrl: string;
  /** A Pro or Max key (dc_...), sent as DC-API-Key. */
  apiKey: string;
  /** The ETag of the copy you hold: an unchanged file yields nothing and costs nothing (304). */
  ifNoneMatch?: string;
  /** Told the build's ETag and Last-Modified before the first trade (keep the ETag for next time). */
  onBuild?: (build: { etag: string | null; lastModified: string | null; rows: number | null }) => void;
  /** The fetch to use (default: globalThis.fetch, which undoes the gzip encoding). */
  fetch?: (input: Request) => Promise<Response>;
}

/** A refused download: its HTTP status and the API's `{detail}`. */
export class BulkDownloadError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`dcledger API ${status}: ${detail}`);
  }
}

/** Every current trade, oldest id first, as GET /bulk/trades?format=ndjson streams them. */
export async function* bulkTrades(options: BulkTradesOptions): AsyncGenerator<Trade> {
  const headers = new Headers({ 'DC-API-Key': options.apiKey, Accept: 'application/x-ndjson' });
  if (options.ifNoneMatch) headers.set('If-None-Match', options.ifNoneMatch);
  const url = `${options.baseUrl.replace(/\/+$/, '')}/bulk/trades?format=ndjson`;
  const response = await (options.fetch ?? ((input: Request) => globalThis.fetch(input)))(
    new Request(url, { headers }),
  );
  if (response.status === 304) return;
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
    throw new BulkDownloadError(
      response.status,
      typeof body.detail === 'string' ? body.detail : response.statusText,
    );
  }
  const rows = response.headers.get('x-bulk-rows');
  options.onBuild?.({
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
    rows: rows === null ? null : Number(rows),
  });
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.length > 0) yield JSON.parse(line) as Trade;
  }
  pending += decoder.decode();
  if (pending.length > 0) yield JSON.parse(pending) as Trade;
}
