// Session cookies and CSRF protection for the account area (/account JSON, /ui pages). One place
// decides: who is signed in (the dc_session cookie), and whether a POST carries the right CSRF
// token — the session's own token once signed in, the dc_csrf double-submit cookie before.
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { outboxMailer } from '../../accounts/mailer.js';
import { manualProvider } from '../../accounts/payments.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../accounts/rate-limit.js';
import type { SelfServiceContext } from '../../accounts/self-service.js';
import {
  CSRF_COOKIE,
  randomToken,
  readSession,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  type Session,
  sameSecret,
} from '../../accounts/sessions.js';
import { ApiError } from '../../errors.js';
import { serviceBaseUrl } from '../public-url.js';
import type { App, AppDeps, SelfServiceDeps } from '../types.js';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    /** false for routes authenticated otherwise (the Stripe webhook's signature). */
    csrf?: boolean;
  }
}

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FIELD = '_csrf';

/** Registers cookies, form bodies, the session lookup and the CSRF check in `scope`. */
export async function registerSessions(scope: App, deps: AppDeps): Promise<void> {
  await scope.register(cookie);
  await scope.register(formbody);
  scope.decorateRequest('session', null);
  scope.addHook('onRequest', async (request, reply) => {
    request.session = await readSession(deps.db, request.cookies[SESSION_COOKIE], deps.clock());
    // Account pages and answers carry keys and balances: never cached, never framed.
    reply.header('cache-control', 'no-store');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
  });
  scope.addHook('preValidation', async (request) => {
    if (request.method !== 'POST' || request.routeOptions.config.csrf === false) return;
    refuseCrossOrigin(request);
    const expected = request.session?.csrfToken ?? request.cookies[CSRF_COOKIE];
    const presented = presentedToken(request);
    if (!expected || !presented || !sameSecret(presented, expected)) {
      throw new ApiError('forbidden', 'CSRF token missing or wrong; reload the page and try again', {
        csrf: true,
      });
    }
  });
}

export function scoped(scope: unknown): App {
  return (scope as App).withTypeProvider<TypeBoxTypeProvider>();
}

function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string' && header) return header;
  const body = request.body as Record<string, unknown> | null | undefined;
  const field = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
  return typeof field === 'string' && field ? field : undefined;
}

/** A browser names the page a POST came from; another site's page is refused outright. */
function refuseCrossOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return;
  let same = false;
  try {
    same = new URL(origin).host === new URL(`${request.protocol}://${request.host}`).host;
  } catch {
    same = false;
  }
  if (!same) throw new ApiError('forbidden', 'Cross-site request refused');
}

/** Secure when the request came over TLS or the service's public URL is https. */
function cookieOptions(request: FastifyRequest, deps: AppDeps, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https' || Boolean(deps.publicUrl?.startsWith('https://')),
    maxAge: maxAgeSeconds,
  };
}

export function setSessionCookie(reply: FastifyReply, deps: AppDeps, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(reply.request, deps, SESSION_TTL_MS / 1000));
}

export function clearSessionCookie(reply: FastifyReply, deps: AppDeps): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(reply.request, deps, 0));
}

/** The pre-session CSRF token: the cookie's value, set now when absent. */
export function preSessionCsrf(request: FastifyRequest, reply: FastifyReply, deps: AppDeps): string {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{20,100}$/.test(existing)) return existing;
  const token = randomToken();
  reply.setCookie(CSRF_COOKIE, token, cookieOptions(request, deps, 86_400));
  return token;
}

/** The CSRF token a page or client must send with its next POST. */
export function csrfTokenFor(request: FastifyRequest, reply: FastifyReply, deps: AppDeps): string {
  return request.session?.csrfToken ?? preSessionCsrf(request, reply, deps);
}

export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw new ApiError('unauthorized', 'Sign in first: POST /account/login');
  return request.session;
}

export function requireOperator(request: FastifyRequest): Session {
  const session = requireSession(request);
  if (!session.isOperator) throw new ApiError('forbidden', 'Only operators see this');
  return session;
}

/**
 * Where links in mails (and payment return pages) point: the configured public URL, else the
 * address this server listens on. Never the request's Host header: whoever sends the request
 * chooses it, and a reset link pointing at their host hands them the victim's token.
 */
export function linkBase(request: FastifyRequest, deps: AppDeps): string {
  return serviceBaseUrl(deps.publicUrl, request.server.server.address()).replace(/\/+$/, '');
}

/** What the account actions (accounts/self-service.ts) need of a request: the API pages and the /ui forms share it. */
export type ContextOf = (request: FastifyRequest) => SelfServiceContext;

export function contextMaker(deps: AppDeps, self: SelfServiceDeps, throttle: RateLimitStore): ContextOf {
  return (request) => ({
    db: deps.db,
    mailer: self.mailer,
    throttle,
    linkBase: linkBase(request, deps),
    ip: request.ip,
    now: deps.clock(),
  });
}

/** What the account area's routes and pages share: its services and the context its actions take. */
export interface AccountArea {
  self: SelfServiceDeps;
  contextOf: ContextOf;
}

/** Made once per app, so that the /account routes and the /ui pages count sign-ins in one place. */
export function accountArea(deps: AppDeps): AccountArea {
  const self = deps.selfService ?? { mailer: outboxMailer(deps.db, deps.clock), payments: manualProvider };
  // Sign-in, sign-up and mail throttles count where the rate limits count: in Redis when
  // DCLEDGER_REDIS_URL gives a shared store (every instance sees one count), else in this process.
  const throttle = self.throttle ?? deps.rateLimits ?? new MemoryRateLimitStore();
  return { self, contextOf: contextMaker(deps, self, throttle) };
}
