// Authentication, rate limits, tier gating and credit metering for every keyed route, driven by
// the price table alone: handlers know nothing of keys or credits.
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { authenticate, type Caller, chargeCaller } from '../../accounts/admin.js';
import { PLAN_GATED_FIELDS, PLAN_TERMS, secondsToMidnightUtc } from '../../accounts/plans.js';
import {
  costOf,
  countRows,
  isPublicRoute,
  type Price,
  priceOf,
  routeKey,
  TIER_PLAN,
} from '../../accounts/price-table.js';
import type { RateLimitStore } from '../../accounts/rate-limit.js';
import type { RequestLogWriter } from '../../accounts/request-log.js';
import { ApiError } from '../../errors.js';
import { errorResponses } from '../schemas/common.js';
import type { App, AppDeps } from '../types.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    price: Price | null;
    /** "METHOD /path" of the matched route. */
    routeId: string;
  }
}

export interface MeteringDeps {
  rateLimits: RateLimitStore;
  requestLog: RequestLogWriter;
}

const MINUTE_MS = 60_000;

function balanceOf(caller: Caller): number {
  return caller.allowance + caller.credits;
}

/** Every route must be priced or public; checked as routes are registered. */
export function assertPriced(method: string | string[], url: string): void {
  for (const m of Array.isArray(method) ? method : [method]) {
    const key = routeKey(m, url);
    if (!isPublicRoute(key) && !priceOf(key)) {
      throw new Error(
        `route ${key} has no entry in the price table (src/accounts/price-table.ts) and is not public`,
      );
    }
  }
}

export function registerMetering(app: App, deps: AppDeps, metering: MeteringDeps): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('price', null);
  app.decorateRequest('routeId', '');

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
      'x-tier': price.tier,
      'x-required-plan': TIER_PLAN[price.tier],
      'x-credits': { base: price.base, per_row: price.perRow, per_executive_row: price.perExecutiveRow },
      response: { ...errorResponses(401, 402, 403, 429), ...(route.schema.response as object | undefined) },
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
    const caller = await authenticate(
      deps.db,
      {
        apiKey: headerValue(request.headers['dc-api-key']),
        authorization: headerValue(request.headers.authorization),
      },
      now,
    );
    request.caller = caller;

    const hit = await metering.rateLimits.hit(`account:${caller.accountId}`, now.getTime(), MINUTE_MS);
    const resetSeconds = Math.max(1, Math.ceil((hit.resetAt - now.getTime()) / 1000));
    reply.header('RateLimit-Limit', caller.requestsPerMinute);
    reply.header('RateLimit-Remaining', Math.max(0, caller.requestsPerMinute - hit.count));
    reply.header('RateLimit-Reset', resetSeconds);
    reply.header('X-Credits-Charged', 0);
    reply.header('X-Credits-Remaining', balanceOf(caller));
    if (hit.count > caller.requestsPerMinute) {
      throw new ApiError(
        'rate_limited',
        `Rate limit of ${caller.requestsPerMinute} requests per minute exceeded; retry in ${resetSeconds} s`,
        { limit: caller.requestsPerMinute },
        { 'Retry-After': String(resetSeconds) },
      );
    }

    const needed = TIER_PLAN[price.tier];
    if (PLAN_TERMS[caller.plan].rank < PLAN_TERMS[needed].rank) {
      throw new ApiError(
        'forbidden',
        `${key} requires the ${needed} plan or higher; this account is on ${caller.plan}`,
        {
          required_plan: needed,
          plan: caller.plan,
        },
      );
    }
    refuseOverCap(caller, price.base, now);
    if (balanceOf(caller) < price.base) throw paymentRequired(price.base, balanceOf(caller));
  });

  // The charge is taken when the answer is known (its rows decide the cost) and before anything
  // is sent: a call that cannot be paid returns no data.
  app.addHook('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const { caller, price } = request;
    if (!caller || !price || reply.statusCode >= 400) return payload;
    const now = deps.clock();
    const cost = costOf(price, countRows(price, payload));
    const outcome = await chargeCaller(
      deps.db,
      caller,
      { cost, requestId: request.id, route: request.routeId },
      now,
    );
    if (!outcome.ok) {
      if (outcome.reason === 'balance') throw paymentRequired(cost, balanceOf(caller));
      if (outcome.reason === 'daily_cap')
        refuseOverCap({ ...caller, spentToday: caller.dailyCap }, cost, now);
      throw new ApiError('forbidden', 'This API key was revoked; use another key or rotate it');
    }
    reply.header('X-Credits-Charged', cost);
    reply.header('X-Credits-Remaining', outcome.allowance + outcome.credits);
    if (caller.plan === 'none') nullGatedFields(payload, 0);
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    const { caller } = request;
    if (!caller) return;
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
  });

  app.addHook('onClose', async () => {
    await metering.requestLog.flush();
  });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function paymentRequired(needed: number, balance: number): ApiError {
  return new ApiError(
    'payment_required',
    `This call needs ${needed} credits and the balance is ${balance}; top up or start a plan`,
    { credits_needed: needed, balance },
  );
}

function refuseOverCap(caller: Caller, cost: number, now: Date): void {
  if (caller.spentToday + cost <= caller.dailyCap) return;
  const retry = secondsToMidnightUtc(now);
  throw new ApiError(
    'rate_limited',
    `This key's daily spend cap of ${caller.dailyCap} credits is reached (spent today: ${caller.spentToday}); it resets at midnight UTC`,
    { daily_cap: caller.dailyCap, spent_today: caller.spentToday },
    { 'Retry-After': String(retry) },
  );
}

const GATED = new Set(PLAN_GATED_FIELDS);

/** Sets plan-gated fields to null wherever they appear in an answer (objects nest at most a few levels). */
function nullGatedFields(value: unknown, depth: number): void {
  if (depth > 4 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) nullGatedFields(item, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (GATED.has(key)) record[key] = null;
    else if (typeof record[key] === 'object') nullGatedFields(record[key], depth + 1);
  }
}
