// ETags on list answers and gzip/br compression of answers.
//
// ETag: every metered GET list answer (price rows 'list') carries a strong ETag, the 64-bit xxHash
// (XXH64) of its JSON; a request whose If-None-Match names it gets 304 Not
// Modified without the body. The 304 is charged as the 200 it stands for: the query ran, and the
// charge (taken before the answer is sent, see metering.ts) stays exact, with its X-Credits-*
// headers. The tag only has to change when the bytes change, not resist a forger (a page is the
// public data of everyone who asks for it), so a fast non-cryptographic hash does: XXH64 costs
// a fraction of the SHA-1 it replaced (figures in BENCHMARKS.md; docs/operations.md).
//
// Compression (@fastify/compress): br or gzip, only when the client's Accept-Encoding asks, only
// above 1 KiB; brotli at quality 4, whose speed is near gzip's.

import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import xxhash from 'xxhash-wasm';
import { isPublicRoute, priceOf, routeKey } from '../../accounts/price-table.js';
import type { App } from '../types.js';
import { addRouteHook, routeMethods, type SyncOnSend } from './route-hooks.js';

/** Answers smaller than this go uncompressed: headers and CPU would cost more than they save. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** JSON, CSV, HTML, JavaScript and other text, except text/event-stream. */
export const COMPRESSIBLE_TYPES =
  /^(?:application\/(?:json|javascript|xml|problem\+json|[\w.+-]+\+json)|text\/(?!event-stream)[\w.+-]+|image\/svg\+xml)(?:;|$)/;

// The WebAssembly module is compiled once, when this module loads. A one-shot hash copies its
// whole input into the module's memory, which then keeps that size: answers above HASH_CHUNK go
// through the streaming hasher in pieces (the same digest), so the memory stays small.
const { h64ToString, h64Raw, create64 } = await xxhash();

/** Characters (or bytes) hashed in one piece; a larger answer is hashed piece by piece. */
const HASH_CHUNK = 1 << 18;

/** The strong ETag of an answer: the XXH64 of its bytes (UTF-8 for a string), in hex. */
export function etagOfPayload(payload: string | Buffer): string {
  return `"${xxh64(payload)}"`;
}

function xxh64(payload: string | Buffer): string {
  if (payload.length <= HASH_CHUNK)
    return typeof payload === 'string'
      ? h64ToString(payload)
      : h64Raw(payload).toString(16).padStart(16, '0');
  const hasher = create64();
  for (let start = 0; start < payload.length; ) {
    let end = Math.min(start + HASH_CHUNK, payload.length);
    // A string is cut between two UTF-16 units, never inside a surrogate pair (whose halves alone
    // would encode as U+FFFD): each piece's UTF-8 bytes are then those of the whole, in order.
    if (typeof payload === 'string' && end < payload.length && isHighSurrogate(payload.charCodeAt(end - 1)))
      end -= 1;
    hasher.update(typeof payload === 'string' ? payload.slice(start, end) : payload.subarray(start, end));
    start = end;
  }
  return hasher.digest().toString(16).padStart(16, '0');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function registerEtags(app: App): void {
  // Only metered GET lists get the hook (route-hooks.ts): no other route hashes or checks anything.
  app.addHook('onRoute', (route) => {
    if (!routeMethods(route).includes('GET')) return;
    const key = routeKey('GET', route.url);
    if (isPublicRoute(key) || priceOf(key)?.rows !== 'list') return;
    addRouteHook(route, 'onSend', etagOf);
  });
}

const etagOf: SyncOnSend = (request, reply, payload, done) => {
  if (request.method !== 'GET' || reply.statusCode !== 200 || request.price?.rows !== 'list')
    return done(null, payload);
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  const etag = etagOfPayload(payload);
  reply.header('etag', etag);
  if (!matches(request.headers['if-none-match'], etag)) return done(null, payload);
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  done(null, '');
};

/** If-None-Match: a list of entity tags (weak ones compare by their opaque part) or `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

export async function registerCompression(app: App): Promise<void> {
  // Request decompression is for bodies: a GET has none, so GET routes go without the plugin's
  // preParsing hook (one hook less on every read; added here, before the plugin's own onRoute).
  app.addHook('onRoute', (route) => {
    const options = route as { decompress?: unknown };
    if (options.decompress === undefined && routeMethods(route).every((method) => method === 'GET'))
      options.decompress = false;
  });
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    // Server-sent events (/chad/chat, /mcp) must reach the client as written, not buffered by zlib.
    customTypes: COMPRESSIBLE_TYPES,
  });
}
