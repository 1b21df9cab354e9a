// Operations endpoints, unmetered and without an API key (PUBLIC_ROUTES): GET /healthz (the process
// answers), GET /readyz (it may take traffic: database, migrations, Redis when configured) and
// GET /metrics (Prometheus text; behind a bearer token when DCLEDGER_METRICS_TOKEN is set).
// The probes are in /openapi.json (tag `operations`, with their 503 answer) so that orchestrators and
// load balancers can be configured from the document; the catalog behind /credits/endpoints and
// /v1/tools leaves that tag out (they are not data calls). /metrics is Prometheus text: hidden.
import { Type } from 'typebox';
import { sameSecret } from '../../../accounts/sessions.js';
import { ApiError } from '../../../errors.js';
import { type ReadinessCheck, runReadinessChecks } from '../../../services/readiness.js';
import type { Metrics } from '../../plugins/metrics.js';
import { OPERATIONS_TAG } from '../../route-catalog.js';
import { ErrorBody } from '../../schemas/common.js';
import type { App } from '../../types.js';

export interface OperationsOptions {
  checks: readonly ReadinessCheck[];
  metrics: Metrics;
  metricsToken: string | undefined;
}

const Check = Type.Object({
  name: Type.String({ description: 'database, migrations or redis' }),
  ok: Type.Boolean(),
  ms: Type.Number({ description: 'How long the check took (ms)' }),
  error: Type.Optional(Type.String({ description: 'What is wrong (failed checks only)' })),
});

const Ready = Type.Object(
  { status: Type.Literal('ready'), checks: Type.Array(Check) },
  {
    examples: [
      {
        status: 'ready',
        checks: [
          { name: 'database', ok: true, ms: 1.2 },
          { name: 'migrations', ok: true, ms: 2.5 },
          { name: 'redis', ok: true, ms: 0.8 },
        ],
      },
    ],
  },
);

const Alive = Type.Object(
  { status: Type.Literal('ok'), uptime_seconds: Type.Integer() },
  { examples: [{ status: 'ok', uptime_seconds: 3600 }] },
);

export function operationsRoutes(app: App, options: OperationsOptions): void {
  const started = Date.now();

  const healthz = {
    tags: [OPERATIONS_TAG],
    summary: 'Liveness: the process answers',
    response: { 200: Alive },
  };
  const readyz = {
    tags: [OPERATIONS_TAG],
    summary: 'Readiness: the database, the schema and Redis (when configured) answer',
    // 503: the error shape plus `status: not_ready` and every check with its error: the database
    // does not answer, migrations are pending, or the shared Redis (when configured) is unreachable.
    response: { 200: Ready, 503: ErrorBody },
  };

  app.get('/healthz', { schema: healthz }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const, uptime_seconds: Math.round((Date.now() - started) / 1000) };
  });

  app.get('/readyz', { schema: readyz }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const checks = await runReadinessChecks(options.checks);
    const failed = checks.filter((check) => !check.ok);
    if (failed.length === 0) return { status: 'ready' as const, checks };
    const reasons = failed.map((check) => `${check.name} (${check.error ?? 'failed'})`).join('; ');
    request.log.warn({ failed: failed.map((check) => check.name) }, 'not ready');
    // The error shape, with the status and every check beside it.
    const body = {
      detail: `Not ready: ${reasons}`,
      request_id: request.id,
      code: 'unavailable',
      status: 'not_ready',
      checks,
    };
    return reply.code(503).send(body);
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
