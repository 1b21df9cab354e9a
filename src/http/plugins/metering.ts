// The metering plugin: runs every keyed route through accounts/ — authentication, then the pure
// policy of accounts/metering.ts (rate, plan, cap, balance; cost; gated fields), then the charge.
// Handlers know nothing of keys or credits; this file only wires the hooks.
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import {
  authenticate,
  type Caller,
  chargeCaller,
  KEY_CACHE_MS,
  pageCharge,
  pageCharged,
  refundCaller,
} from '../../accounts/authentication.js';
import { gatedFieldOfQuery, gatedFieldRefused } from '../../accounts/gating.js';
import {
  admit,
  assertPriced,
  balanceOf,
  costOfAnswer,
  nullGatedFields,
  priceExtensions,
  RATE_WINDOW_MS,
  rateLimitState,
  refusedCharge,
  seesGatedFields,
} from '../../accounts/metering.js';
import {
  costOf,
  isPublicRoute,
  type Price,
  priceOf,
  type RowCount,
  routeKey,
} from '../../accounts/price-table.js';
import type { RateLimitStore } from '../../accounts/rate-limit.js';
import type { RequestLogWriter } from '../../accounts/request-log.js';
import { ApiError } from '../../errors.js';
import type { ChargeOutcome } from '../../storage/charges/statements.js';
import type { PageCharged, PageChargeValues } from '../../storage/charges/with-page.js';
import { errorResponses } from '../schemas/common.js';
import type { App, AppDeps } from '../types.js';
import { wantsCsv } from './csv.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    price: Price | null;
    /** "METHOD /path" of the matched route. */
    routeId: string;
    /** Set once the call is charged (a streamed answer is charged before its first byte). */
    charged: boolean;
    /** The request-log row was written in the charge transaction. */
    usageLogged: boolean;
  }
  interface FastifyInstance {
    /**
     * The refunds of undelivered answers still being written, which the app's close() waits for.
     * They are the app's (not its database's: two apps may share a store), so the app carries them.
     */
    pendingRefunds: Set<Promise<void>>;
  }
}

export interface MeteringDeps {
  rateLimits: RateLimitStore;
  requestLog: RequestLogWriter;
}

export function registerMetering(app: App, deps: AppDeps, metering: MeteringDeps): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('price', null);
  app.decorateRequest('routeId', '');
  app.decorateRequest('charged', false);
  app.decorateRequest('usageLogged', false);
  app.decorate('pendingRefunds', new Set<Promise<void>>());

  app.addHook('onRoute', (route) => {
    assertPriced(route.method, route.url);
    const price = priceOf(
      routeKey(Array.isArray(route.method) ? (route.method[0] ?? 'GET') : route.method, route.url),
    );
    if (!price || !route.schema) return;
    // The price table is what /openapi.json publishes: tier, costs, the key header and the
    // answers the metering layer may give.
    route.schema = {
      ...(route.schema as Record<string, unknown>),
      security: [{ DCApiKey: [] }],
      ...priceExtensions(price),
      response: {
        ...errorResponses(401, 402, 403, 429, 503),
        ...(route.schema.response as object | undefined),
      },
    } as FastifySchema;
  });

  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === undefined) return; // unknown path: the 404 handler answers
    const key = routeKey(request.method, url);
    request.routeId = key;
    if (isPublicRoute(key)) return;
    const price = priceOf(key);
    if (!price) throw new ApiError('internal', 'route is not priced');
    request.price = price;

    const now = deps.clock();
    let caller = await authenticate(deps.db, keyHeaders(request), now, KEY_CACHE_MS);
    const hit = await metering.rateLimits.hit(`account:${caller.accountId}`, now.getTime(), RATE_WINDOW_MS);
    const decide = () => {
      request.caller = caller;
      const { resetSeconds, remaining } = rateLimitState(caller, hit.count, hit.resetAt, now);
      reply.header('RateLimit-Limit', caller.requestsPerMinute);
      reply.header('RateLimit-Remaining', remaining);
      reply.header('RateLimit-Reset', resetSeconds);
      reply.header('X-Credits-Charged', 0);
      reply.header('X-Credits-Remaining', balanceOf(caller));
      admit(caller, price, key, hit.count, resetSeconds, now);
    };
    try {
      decide();
    } catch (refusal) {
      // A cached row may be up to a second old: a refusal (plan, limit, cap, balance) is decided
      // again on the rows as they are now, so a top-up or an upgrade made elsewhere counts at once.
      if (!caller.cached) throw refusal;
      caller = await currentCaller(deps, request, now);
      decide();
    }
  });

  // Ordering or filtering by a plan-gated field would reveal it: it needs the plan that sees it.
  // (Synchronous, like the request-log hook below: every keyed request runs both.)
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.caller || seesGatedFields(request.caller)) return done();
    const field = gatedFieldOfQuery(request.query);
    done(field ? gatedFieldRefused(field, request.caller.plan) : undefined);
  });

  // The charge is taken when the answer is known (its rows decide the cost) and before anything
  // is sent: a call that cannot be paid returns no data.
  app.addHook('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    await settleCharge(deps, request, reply, payload);
    return payload;
  });

  app.addHook('onResponse', (request, reply, done) => {
    const { caller } = request;
    // A charged call's row was written with its charge; refused calls (no charge) are batched.
    if (!caller || request.usageLogged) return done();
    const charged = Number(reply.getHeader('X-Credits-Charged') ?? 0);
    metering.requestLog.add({
      account_id: caller.accountId,
      key_id: caller.keyId,
      request_id: request.id,
      method: request.method,
      route: request.routeId,
      status: reply.statusCode,
      charge: reply.statusCode < 400 ? charged : 0,
      created_at: deps.clock().toISOString(),
    });
    done();
  });

  app.addHook('onClose', async () => {
    await Promise.allSettled([...app.pendingRefunds]);
    await metering.requestLog.flush();
  });
}

/**
 * Charges the call for `payload` (once). preSerialization does it for every JSON answer; a route that
 * streams its answer calls it before the first byte, with what decides the price.
 */
export async function settleCharge(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<void> {
  const { caller, price } = request;
  if (!caller || !price || reply.statusCode >= 400 || request.charged) return;
  await chargeCost(deps, request, reply, costOfAnswer(price, payload));
  if (!seesGatedFields(caller)) nullGatedFields(payload);
}

/**
 * Charges a call whose answer is already JSON text (built by the database), for the rows it
 * holds; the caller's plan-gated fields must already be null in it. Sends nothing.
 */
export async function settleChargeForRows(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  count: RowCount,
): Promise<void> {
  const { caller, price } = request;
  if (!caller || !price || reply.statusCode >= 400 || request.charged) return;
  await chargeCost(
    deps,
    request,
    reply,
    costOf(price, price.rows === 'none' ? { rows: 0, executiveRows: 0 } : count),
  );
}

/** Whether the caller's plan-gated fields must be null in the answer (a keyed caller without a plan). */
export function hidesGatedFields(request: FastifyRequest): boolean {
  return request.caller !== null && !seesGatedFields(request.caller);
}

/**
 * Answers with a page whose JSON text the database built: `load` gets whether the caller's
 * plan-gated fields must be null in it, the call is charged for the page's rows, the Link header
 * counts them, and the text is sent as it is (GET /trades, the ticker and feed lists, /politicians).
 * `load` also gets the call's charge: where the page's statement takes it (PostgreSQL), the page
 * comes back `charged` and the call costs one round trip to the database instead of two; otherwise
 * it is taken here once the page is known.
 */
export async function sendDatabaseJson(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  load: (
    hideGated: boolean,
    charge: PageChargeValues | undefined,
  ) => Promise<RowCount & { json: string | Buffer; charged?: PageCharged }>,
): Promise<FastifyReply> {
  const { caller, price } = request;
  const hideGated = hidesGatedFields(request);
  const now = deps.clock();
  const charge =
    caller && price && reply.statusCode < 400 && !request.charged
      ? pageCharge(
          caller,
          price,
          {
            requestId: request.id,
            route: request.routeId,
            usage: { method: request.method, status: reply.statusCode },
          },
          now,
        )
      : undefined;
  const page = await load(hideGated, charge);
  if (charge && page.charged) {
    pageCharged(deps.db, charge, page.charged.outcome);
    await settleOutcome(deps, request, reply, page.charged.cost, page.charged.outcome, now);
  } else await settleChargeForRows(deps, request, reply, page);
  // Every row of the page counts for its Link header, executive rows (priced apart) included.
  request.pageRows = page.rows + page.executiveRows;
  return reply.type('application/json; charset=utf-8').send(page.json);
}

/**
 * A list whose JSON answer is the page text the database writes (no executive rows in it), sent by
 * sendDatabaseJson; a CSV answer is built from the same page's objects (`objects`).
 */
export async function sendDatabaseJsonOrObjects<T>(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  json: () => Promise<{ json: string | Buffer; rows: number }>,
  objects: () => Promise<T>,
): Promise<FastifyReply | T> {
  if (wantsCsv(request)) return objects();
  return sendDatabaseJson(deps, request, reply, async () => ({ ...(await json()), executiveRows: 0 }));
}

async function chargeCost(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, cost: number) {
  const { caller } = request;
  if (!caller) return;
  const now = deps.clock();
  const outcome = await chargeCaller(
    deps.db,
    caller,
    {
      cost,
      requestId: request.id,
      route: request.routeId,
      usage: { method: request.method, status: reply.statusCode },
    },
    now,
  );
  await settleOutcome(deps, request, reply, cost, outcome, now);
}

/** What a charge taken at `now` answers: its refusal, or the call marked charged and its headers. */
async function settleOutcome(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  cost: number,
  outcome: ChargeOutcome,
  now: Date,
) {
  if (!outcome.ok) {
    // The refusal states the balance and spend as they are, not as a cached row had them.
    throw refusedCharge(await currentCaller(deps, request, now), cost, outcome.reason, now);
  }
  request.charged = true;
  request.usageLogged = true;
  reply.header('X-Credits-Charged', cost);
  reply.header('X-Credits-Remaining', outcome.allowance + outcome.credits);
  if (cost > 0)
    refundIfUndelivered(deps, request, reply, { cost, chargedAt: now, toAllowance: outcome.allowance > 0 });
}

/**
 * A charged answer that is not delivered is refunded. Delivered: the operating system took the
 * answer's last byte while the connection was up, i.e. the response's last write succeeded. The
 * response's `finish` alone cannot tell (Node emits it after a failed write too, and its
 * `writableFinished` is true once the socket is gone): at `finish` the socket must still be up and
 * carry no write error. A connection that ends first (the caller reset it, or hung up before the
 * answer was written) leaves the caller without the whole answer, and the charge goes back. A
 * caller that reads the whole answer and then resets the connection gets nothing back: the last
 * byte was taken, the write succeeded, before it could be read. Unless the reset comes as that last
 * write completes: Node then reports the write failed (ECONNRESET), as it does for a caller that
 * reset mid-answer, and the call is refunded; the server cannot tell the two apart, and the doubt
 * goes to the caller. An answer kept under an
 * Idempotency-Key is not refunded: a retry with that key gets it again without a second charge.
 */
function refundIfUndelivered(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  charge: { cost: number; chargedAt: Date; toAllowance: boolean },
): void {
  const response = reply.raw;
  const socket = request.raw.socket;
  let delivered = false;
  const onClose = () => {
    if (delivered || request.idempotency || !request.caller) return;
    const held = request.server.pendingRefunds;
    const refund = refundCaller(
      deps.db,
      request.caller,
      { ...charge, requestId: request.id, route: request.routeId },
      deps.clock(),
    ).then(
      (refunded) => {
        if (refunded)
          request.log.info(
            { credits_refunded: charge.cost, route: request.routeId },
            'answer not delivered (connection closed before its last byte): charge refunded',
          );
      },
      (error: unknown) => request.log.error({ err: error }, 'refunding an undelivered answer failed'),
    );
    held.add(refund);
    void refund.finally(() => held.delete(refund));
  };
  // The connection may have closed while the charge was being taken.
  if (response.destroyed || socket.destroyed) {
    onClose();
    return;
  }
  response.on('finish', () => {
    delivered = !socket.destroyed && !failedWrite(socket.errored);
  });
  response.on('close', onClose);
}

/**
 * Whether a socket's error is a write that failed: libuv's (EPIPE, ECONNRESET, ... from `write`)
 * or the stream's own (written after it ended or was destroyed). A write's failure is recorded on
 * the socket before the write's callback, the response's `finish`, runs. A read error (the caller
 * reset the connection after the last byte was taken) is not one.
 */
function failedWrite(error: Error | null | undefined): boolean {
  if (!error) return false;
  const { syscall, code } = error as NodeJS.ErrnoException;
  return syscall === 'write' || code?.startsWith('ERR_STREAM_') === true;
}

/**
 * The caller as the database has it now: for an answer that reports the account itself (its
 * balance, plan, spend), which a key cache row up to a second old must not state.
 */
export async function currentCaller(
  deps: AppDeps,
  request: FastifyRequest,
  now: Date = deps.clock(),
): Promise<Caller> {
  const { caller } = request;
  if (!caller) throw new Error(`metering did not authenticate ${request.routeId}`);
  if (!caller.cached) return caller;
  request.caller = await authenticate(deps.db, keyHeaders(request), now);
  return request.caller;
}

function keyHeaders(request: FastifyRequest) {
  return {
    apiKey: headerValue(request.headers['dc-api-key']),
    authorization: headerValue(request.headers.authorization),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
