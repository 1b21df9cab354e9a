// GET /readyz: readiness, the service may take traffic (database, migrations, Redis when configured).
import { Type } from 'typebox';
import { type ReadinessCheck, runReadinessChecks } from '../../../services/readiness.js';
import { OPERATIONS_TAG } from '../../route-catalog.js';
import { ErrorBody } from '../../schemas/common.js';
import type { App } from '../../types.js';

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

export function readyzRoute(app: App, options: { checks: readonly ReadinessCheck[] }): void {
  const readyz = {
    tags: [OPERATIONS_TAG],
    summary: 'Readiness: the database, the schema and Redis (when configured) answer',
    // 503: the error shape plus `status: not_ready` and every check with its error: the database
    // does not answer, migrations are pending, or the shared Redis (when configured) is unreachable.
    response: { 200: Ready, 503: ErrorBody },
  };

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
}
