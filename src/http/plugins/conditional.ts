// ETags on list answers and gzip/br compression of answers.
//
// ETag: every metered GET list answer (price rows 'list') carries a strong ETag, the SHA-1 of its
// JSON; a request whose If-None-Match names it gets 304 Not Modified without the body. The 304 is
// charged as the 200 it stands for: the query ran, and the charge (taken before the answer is
// sent, see metering.ts) stays exact, with its X-Credits-* headers. Hashing costs about 2.5 ns per
// byte on the reference machine (~40 µs for a 25-row /trades page): measured, accepted, documented
// in docs/operations.md.
//
// Compression (@fastify/compress): br or gzip, only when the client's Accept-Encoding asks, only
// above 1 KiB; brotli at quality 4, whose speed is near gzip's.

import { hash } from 'node:crypto';
import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import { isPublicRoute, priceOf, routeKey } from '../../accounts/price-table.js';
import type { App } from '../types.js';
import { addRouteHook, routeMethods, type SyncOnSend } from './route-hooks.js';

/** Answers smaller than this go uncompressed: headers and CPU would cost more than they save. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** JSON, CSV, HTML, JavaScript and other text, except text/event-stream. */
export const COMPRESSIBLE_TYPES =
  /^(?:application\/(?:json|javascript|xml|problem\+json|[\w.+-]+\+json)|text\/(?!event-stream)[\w.+-]+|image\/svg\+xml)(?:;|$)/;

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
  const etag = `"${hash('sha1', payload, 'base64url')}"`;
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
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    // Server-sent events (/chad/chat, /mcp) must reach the client as written, not buffered by zlib.
    customTypes: COMPRESSIBLE_TYPES,
  });
}
