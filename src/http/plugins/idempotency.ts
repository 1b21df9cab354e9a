// Idempotency-Key on every POST: the first request with a key claims it (a unique row, so a
// concurrent duplicate cannot also run), its answer is stored sealed, and a retry with the same key
// and body within 24 h gets that answer again without running the handler (no second charge, no
// second side effect). Policy (key shape, fingerprint, sealing) is accounts/idempotency.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_TTL_MS,
  idempotencyKeyHash,
  openAnswer,
  parseIdempotencyKey,
  REPLAYED_HEADER,
  REPLAYED_HEADERS,
  requestFingerprint,
  sealAnswer,
} from '../../accounts/idempotency.js';
import { ApiError } from '../../errors.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  type IdempotencyRow,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
} from '../../storage/repositories/idempotency.js';
import type { App, AppDeps } from '../types.js';
import { addRouteHook, routeMethods } from './route-hooks.js';

interface HeldKey {
  scope: string;
  key: string;
  keyHash: string;
  /** Set once the answer is stored or the claim released. */
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed and runs under. */
    idempotency: HeldKey | null;
  }
}

const PURGE_EVERY_MS = 60 * 60 * 1000;

export function registerIdempotency(app: App, deps: AppDeps): void {
  app.decorateRequest('idempotency', null);
  let lastPurge = 0;

  // preHandler: after authentication (metering's onRequest), the session lookup and CSRF check,
  // and body validation, so a refused or malformed request claims nothing.
  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_HEADER]);
    if (key === undefined) return;
    const scope = scopeOf(request);
    if (scope === undefined) {
      throw new ApiError(
        'bad_request',
        'Idempotency-Key applies to requests made with an API key or a signed-in session; this request has neither',
      );
    }
    const now = deps.clock();
    if (now.getTime() - lastPurge > PURGE_EVERY_MS) {
      lastPurge = now.getTime();
      await purgeExpiredIdempotencyKeys(deps.db, now.toISOString());
    }
    const keyHash = idempotencyKeyHash(scope, key);
    const requestHash = requestFingerprint(request.method, request.url, request.body);
    const claimed = await claimIdempotencyKey(deps.db, {
      scope,
      keyHash,
      route: request.routeId || `POST ${request.routeOptions.url ?? request.url}`,
      requestHash,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
    });
    if (claimed) {
      request.idempotency = { scope, key, keyHash, settled: false };
      return;
    }
    const stored = await findIdempotencyKey(deps.db, scope, keyHash);
    // Released between our claim and this read: the other request failed; the client may retry.
    if (!stored) throw inProgress();
    if (stored.request_hash !== requestHash) {
      throw new ApiError(
        'unprocessable',
        `This Idempotency-Key was used with a different request (${stored.route}, another body or path); use a new key for a new request`,
      );
    }
    if (stored.state !== 'done') throw inProgress();
    return replay(reply, scope, key, stored);
  };

  // onSend sees the serialized answer; it runs before compression (registered later), so the
  // stored body is the plain one.
  const store = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const held = request.idempotency;
    if (!held || held.settled) return payload;
    held.settled = true;
    if (reply.statusCode >= 400) {
      // Refused or failed: nothing to remember; a retry with the same key runs again.
      await releaseIdempotencyKey(deps.db, held.scope, held.keyHash);
      return payload;
    }
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    await completeIdempotencyKey(deps.db, held.scope, held.keyHash, {
      status: reply.statusCode,
      headers: JSON.stringify(replayedHeaders(reply)),
      body: body === null ? null : sealAnswer(held.scope, held.key, body),
    });
    return payload;
  };

  // The connection went away before an answer was sent: free the key for a retry.
  const release = async (request: FastifyRequest) => {
    const held = request.idempotency;
    if (!held || held.settled) return;
    held.settled = true;
    await releaseIdempotencyKey(deps.db, held.scope, held.keyHash);
  };

  // The hooks run on POST routes only (attached per route): a GET never pays for them.
  app.addHook('onRoute', (route) => {
    if (!routeMethods(route).includes('POST')) return;
    addRouteHook(route, 'preHandler', claim);
    addRouteHook(route, 'onSend', store);
    addRouteHook(route, 'onResponse', release);
    addRouteHook(route, 'onRequestAbort', release);
  });
}

function scopeOf(request: FastifyRequest): string | undefined {
  const accountId = request.caller?.accountId ?? request.session?.accountId;
  return accountId === undefined ? undefined : `account:${accountId}`;
}

function inProgress(): ApiError {
  return new ApiError(
    'conflict',
    'A request with this Idempotency-Key is still running; retry after it has answered',
    {},
    { 'Retry-After': '1' },
  );
}

function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
  }
  return headers;
}

function replay(reply: FastifyReply, scope: string, key: string, stored: IdempotencyRow) {
  if (stored.body === null) {
    throw new ApiError(
      'conflict',
      'The request with this Idempotency-Key already ran and its answer was streamed, which is not stored; use a new key to run it again',
    );
  }
  const headers = JSON.parse(stored.headers ?? '{}') as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  reply.header(REPLAYED_HEADER, 'true');
  return reply.code(stored.status ?? 200).send(openAnswer(scope, key, stored.body));
}
