// Operations endpoints, unmetered and without an API key (PUBLIC_ROUTES): GET /healthz (the process
// answers), GET /readyz (it may take traffic: database, migrations, Redis when configured) and
// GET /metrics (Prometheus text; behind a bearer token when DCLEDGER_METRICS_TOKEN is set).
// The probes are in /openapi.json (tag `operations`, with their 503 answer) so that orchestrators and
// load balancers can be configured from the document; the catalog behind /credits/endpoints and
// /v1/tools leaves that tag out (they are not data calls). /metrics is Prometheus text: hidden.
import { defaultReadinessChecks } from '../../../services/readiness.js';
import type { RouteFolder } from '../../route-folders.js';
import { healthzRoute } from './healthz.js';
import { metricsRoute } from './metrics.js';
import { readyzRoute } from './readyz.js';

export const routes: RouteFolder = {
  order: 290,
  register(app, { deps, metrics }) {
    healthzRoute(app);
    readyzRoute(app, { checks: deps.readiness ?? defaultReadinessChecks(deps.db) });
    metricsRoute(app, { metrics, metricsToken: deps.metricsToken });
  },
};
