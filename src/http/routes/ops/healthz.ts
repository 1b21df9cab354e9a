// GET /healthz: liveness, the process answers.
import { Type } from 'typebox';
import { OPERATIONS_TAG } from '../../route-catalog.js';
import type { App } from '../../types.js';

const Alive = Type.Object(
  { status: Type.Literal('ok'), uptime_seconds: Type.Integer() },
  { examples: [{ status: 'ok', uptime_seconds: 3600 }] },
);

export function healthzRoute(app: App): void {
  const started = Date.now();

  const healthz = {
    tags: [OPERATIONS_TAG],
    summary: 'Liveness: the process answers',
    response: { 200: Alive },
  };

  app.get('/healthz', { schema: healthz }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const, uptime_seconds: Math.round((Date.now() - started) / 1000) };
  });
}
