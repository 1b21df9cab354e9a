// buildApp(deps): plugins first (errors, OpenAPI), then the route folders.
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
import { validationController } from './http/plugins/validation.js';
import { RouteCatalog } from './http/route-catalog.js';
import { accountRoutes } from './http/routes/account/index.js';
import { alertRoutes } from './http/routes/alerts/index.js';
import { billRoutes } from './http/routes/bills/index.js';
import { bulkRoutes } from './http/routes/bulk/index.js';
import { chatRoutes } from './http/routes/chat/index.js';
import { clusterRoutes } from './http/routes/clusters/index.js';
import { committeeRoutes } from './http/routes/committees/index.js';
import { companyRoutes } from './http/routes/companies/index.js';
import { conflictRoutes } from './http/routes/conflict/index.js';
import { contractRoutes } from './http/routes/contracts/index.js';
import { creditRoutes } from './http/routes/credits/index.js';
import { docsRoutes } from './http/routes/docs/index.js';
import { feedRoutes } from './http/routes/feed/index.js';
import { filingRoutes } from './http/routes/filings/index.js';
import { insiderRoutes } from './http/routes/insiders/index.js';
import { legislationRoutes } from './http/routes/legislation/index.js';
import { lobbyingRoutes } from './http/routes/lobbying/index.js';
import { mcpRoutes } from './http/routes/mcp/index.js';
import { metaRoutes } from './http/routes/meta/index.js';
import { operationsRoutes } from './http/routes/ops/index.js';
import { overlapRoutes } from './http/routes/overlap/index.js';
import { politicianRoutes } from './http/routes/politicians/index.js';
import { portfolioRoutes } from './http/routes/portfolio/index.js';
import { qualityRoutes } from './http/routes/quality/index.js';
import { searchRoutes } from './http/routes/search/index.js';
import { statsRoutes } from './http/routes/stats/index.js';
import { tickerRoutes } from './http/routes/tickers/index.js';
import { toolRoutes } from './http/routes/tools/index.js';
import { tradeRoutes } from './http/routes/trades/index.js';
import { accountPages } from './http/routes/ui/index.js';
import { voteRoutes } from './http/routes/votes/index.js';
import { whaleRoutes } from './http/routes/whales/index.js';
import type { App, AppDeps } from './http/types.js';
import { defaultReadinessChecks } from './services/readiness.js';
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

  tradeRoutes(app, deps);
  bulkRoutes(app, deps);
  politicianRoutes(app, deps);
  portfolioRoutes(app, deps);
  conflictRoutes(app, deps);
  overlapRoutes(app, deps);
  companyRoutes(app, deps);
  clusterRoutes(app, deps);
  legislationRoutes(app, deps);
  tickerRoutes(app, deps);
  feedRoutes(app, deps);
  statsRoutes(app, deps);
  qualityRoutes(app, deps);
  searchRoutes(app, deps);
  filingRoutes(app, deps);
  lobbyingRoutes(app, deps);
  contractRoutes(app, deps);
  insiderRoutes(app, deps);
  whaleRoutes(app, deps);
  billRoutes(app, deps);
  voteRoutes(app, deps);
  committeeRoutes(app, deps);
  creditRoutes(app, deps, catalog);
  const webhooks = deps.webhooks ?? ownWebhookRuntime(app);
  alertRoutes(app, deps, webhooks);
  toolRoutes(app, deps, catalog);
  mcpRoutes(app, catalog);
  chatRoutes(app, deps, catalog);
  metaRoutes(app);
  operationsRoutes(app, {
    checks: deps.readiness ?? defaultReadinessChecks(deps.db),
    metrics,
    metricsToken: deps.metricsToken,
  });
  docsRoutes(app);
  // The account area: JSON under /account and pages under /ui, /, /status (session cookie, unmetered).
  accountRoutes(app, deps, accountPages(deps, webhooks));

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
