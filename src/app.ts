// buildApp(deps): plugins first (errors, OpenAPI), then the route folders, which load themselves.
import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { MemoryRateLimitStore } from './accounts/rate-limit.js';
import { RequestLogWriter } from './accounts/request-log.js';
import { registerCompression, registerEtags } from './http/plugins/conditional.js';
import { registerContentSecurityPolicy } from './http/plugins/content-security.js';
import { registerCsv } from './http/plugins/csv.js';
import { frameworkErrorOptions, registerErrorHandling } from './http/plugins/errors.js';
import { registerCors, registerSecurityHeaders } from './http/plugins/headers.js';
import { registerIdempotency } from './http/plugins/idempotency.js';
import { registerMetering } from './http/plugins/metering.js';
import { createMetrics, registerRequestMetrics } from './http/plugins/metrics.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { registerPaging } from './http/plugins/paging.js';
import { registerQueryNames } from './http/plugins/query-names.js';
import { accountArea } from './http/plugins/session.js';
import { validationController } from './http/plugins/validation.js';
import { RouteCatalog } from './http/route-catalog.js';
import { registerRouteFolders } from './http/route-folders.js';
import type { App, AppDeps } from './http/types.js';
import { createWebhookRuntime } from './webhooks/runtime.js';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => randomUUID(),
    // request.ip is the socket's peer unless the operator names the proxies in front (X-Forwarded-For).
    trustProxy: trustedProxies(deps.trustProxy),
    // Never trust a client-sent request id: ours appears in logs and error bodies.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A HEAD of a metered route would be charged for an answer without a body: offer GET only.
    exposeHeadRoutes: false,
    schemaController: validationController,
    ...frameworkErrorOptions,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Synchronous hooks (a `done` callback, no promise) where nothing is awaited: every request runs them.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerErrorHandling(app);
  const metrics = createMetrics(deps);
  registerRequestMetrics(app, metrics);
  const catalog = new RouteCatalog();
  app.addHook('onRoute', (route) => catalog.record(route));
  registerMetering(app, deps, {
    rateLimits: deps.rateLimits ?? new MemoryRateLimitStore(),
    requestLog: new RequestLogWriter(deps.db, (error) =>
      app.log.error({ err: error }, 'request log write failed'),
    ),
  });
  // After metering (the caller is known) and before compression (the stored answer is plain).
  registerIdempotency(app, deps);
  // After metering: a CSV answer is charged as its JSON would be.
  registerCsv(app);
  // After CSV (its `format` parameter is one a list takes): unknown query parameters are a 400.
  registerQueryNames(app);
  // List answers keep their bodies; paging goes in the Link header (no count query).
  registerPaging(app, deps);
  // After idempotency and CSV (their onSend hooks see the plain answer), before any route.
  registerEtags(app);
  await registerCompression(app);
  registerSecurityHeaders(app);
  registerContentSecurityPolicy(app);
  await registerCors(app, deps.corsOrigins);
  await registerOpenApi(app, deps);

  // Every folder under http/routes/ registers itself (its index.ts exports `routes`), in its declared order.
  await registerRouteFolders(app, {
    deps,
    catalog,
    webhooks: deps.webhooks ?? ownWebhookRuntime(app),
    metrics,
    accountArea: accountArea(deps),
  });

  await app.ready();
  return app;
}

/** Fastify's form of DCLEDGER_TRUST_PROXY: addresses/ranges as a list, a hop count as "the first n hops". */
function trustedProxies(
  setting: AppDeps['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (setting === undefined || setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return [...setting];
}

/** The defaults when the caller gives no webhook runtime; its connections close with the app. */
function ownWebhookRuntime(app: App) {
  const runtime = createWebhookRuntime({ allowCidrs: [], secretKey: null, timeoutMs: 15_000 });
  app.addHook('onClose', () => runtime.sender.close());
  return runtime;
}

// What commands need of the HTTP layer (they import app.ts, never http/ itself).
export { API_VERSION } from './http/plugins/openapi.js';
export { injectToolTransport } from './http/tool-transport.js';
