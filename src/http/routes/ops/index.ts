// Operations endpoints, unmetered and without an API key (PUBLIC_ROUTES): GET /healthz (the process
// answers), GET /readyz (it may take traffic: database, migrations, Redis when configured) and
// GET /metrics (Prometheus text; behind a bearer token when DCLEDGER_METRICS_TOKEN is set).
// The probes are in /openapi.json (tag `operations`, with their 503 answer) so that orchestrators and
// load balancers can be configured from the document; the catalog behind /credits/endpoints and
// /v1/tools leaves that tag out (they are not data calls). /metrics is Prometheus text: hidden.
import type { ReadinessCheck } from '../../../services/readiness.js';
import type { Metrics } from '../../plugins/metrics.js';
import type { App } from '../../types.js';
import { healthzRoute } from './healthz.js';
import { metricsRoute } from './metrics.js';
import { readyzRoute } from './readyz.js';

export interface OperationsOptions {
  checks: readonly ReadinessCheck[];
  metrics: Metrics;
  metricsToken: string | undefined;
}

export function operationsRoutes(app: App, options: OperationsOptions): void {
  healthzRoute(app);
  readyzRoute(app, options);
  metricsRoute(app, options);
}
