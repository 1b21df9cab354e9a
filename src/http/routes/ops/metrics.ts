// GET /metrics: Prometheus text, behind a bearer token when DCLEDGER_METRICS_TOKEN is set; hidden
// from /openapi.json.
import { sameSecret } from '../../../accounts/sessions.js';
import { ApiError } from '../../../errors.js';
import type { Metrics } from '../../plugins/metrics.js';
import type { App } from '../../types.js';

export function metricsRoute(
  app: App,
  options: { metrics: Metrics; metricsToken: string | undefined },
): void {
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
