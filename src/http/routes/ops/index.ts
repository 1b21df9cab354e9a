// Operations endpoints, unmetered and without an API key (PUBLIC_ROUTES): GET /healthz (the process
// answers), GET /readyz (it may take traffic: database, migrations, Redis when configured) and
// GET /metrics (Prometheus text; behind a bearer token when DCLEDGER_METRICS_TOKEN is set).
// Hidden from /openapi.json, /credits/endpoints and /v1/tools: they are for orchestrators, not clients.
import { sameSecret } from '../../../accounts/sessions.js';
import { ApiError } from '../../../errors.js';
import { type ReadinessCheck, runReadinessChecks } from '../../../services/readiness.js';
import type { Metrics } from '../../plugins/metrics.js';
import type { App } from '../../types.js';

export interface OperationsOptions {
  checks: readonly ReadinessCheck[];
  metrics: Metrics;
  metricsToken: string | undefined;
}

export function operationsRoutes(app: App, options: OperationsOptions): void {
  const started = Date.now();

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', uptime_seconds: Math.round((Date.now() - started) / 1000) };
  });

  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const checks = await runReadinessChecks(options.checks);
    const failed = checks.filter((check) => !check.ok);
    if (failed.length === 0) return { status: 'ready', checks };
    const reasons = failed.map((check) => `${check.name} (${check.error ?? 'failed'})`).join('; ');
    request.log.warn({ failed: failed.map((check) => check.name) }, 'not ready');
    return reply
      .code(503)
      .send({ detail: `Not ready: ${reasons}`, request_id: request.id, status: 'not_ready', checks });
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (options.metricsToken !== undefined) {
      const presented = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      if (!sameSecret(presented, options.metricsToken)) {
        throw new ApiError(
          'unauthorized',
          'GET /metrics needs Authorization: Bearer <DCLEDGER_METRICS_TOKEN>',
        );
      }
    }
    reply.header('cache-control', 'no-store');
    reply.type(options.metrics.registry.contentType);
    return options.metrics.registry.metrics();
  });
}
