// buildApp(deps): plugins first (errors, OpenAPI), then the route folders.
import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { registerErrorHandling } from './http/plugins/errors.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { feedRoutes } from './http/routes/feed/index.js';
import { openApiRoute } from './http/routes/meta/openapi.js';
import { politicianRoutes } from './http/routes/politicians/index.js';
import { portfolioRoutes } from './http/routes/portfolio/index.js';
import { searchRoutes } from './http/routes/search/index.js';
import { statsRoutes } from './http/routes/stats/index.js';
import { tickerRoutes } from './http/routes/tickers/index.js';
import { tradeRoutes } from './http/routes/trades/index.js';
import type { App, AppDeps } from './http/types.js';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => randomUUID(),
    // Never trust a client-sent request id: ours appears in logs and error bodies.
    requestIdHeader: false,
    disableRequestLogging: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  await registerOpenApi(app, deps);

  tradeRoutes(app, deps);
  politicianRoutes(app, deps);
  portfolioRoutes(app, deps);
  tickerRoutes(app, deps);
  feedRoutes(app, deps);
  statsRoutes(app, deps);
  searchRoutes(app, deps);
  openApiRoute(app);

  await app.ready();
  return app;
}
