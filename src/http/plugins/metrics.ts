// Prometheus metrics (prom-client). Per request: one counter and one histogram observation keyed by
// the route pattern (never the raw URL, whose ids would explode the series), the credits charged
// and the rate-limited refusals. At scrape time: what all roles share, read from the database
// (webhook deliveries, outbox depth, ingest sources and documents, enrichment lag).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { WEBHOOK_PLANS } from '../../accounts/plans.js';
import { type OperationalState, operationalState } from '../../storage/repositories/operations.js';
import type { App, AppDeps } from '../types.js';

export interface Metrics {
  registry: Registry;
}

const UNMATCHED = '(unmatched)';

export function createMetrics(deps: AppDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labels = ['method', 'route', 'status'] as const;
  new Counter({
    name: 'dcledger_http_requests_total',
    help: 'HTTP requests answered',
    labelNames: labels,
    registers: [registry],
  });
  new Histogram({
    name: 'dcledger_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern',
    labelNames: labels,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Counter({
    name: 'dcledger_credits_charged_total',
    help: 'Credits charged for API calls',
    labelNames: ['route'],
    registers: [registry],
  });
  new Counter({
    name: 'dcledger_rate_limited_total',
    help: 'Calls refused with 429 (per-minute rate or daily spend cap)',
    labelNames: ['route'],
    registers: [registry],
  });
  registerDatabaseGauges(registry, deps);
  return { registry };
}

export function registerRequestMetrics(app: App, metrics: Metrics): void {
  const requests = metrics.registry.getSingleMetric('dcledger_http_requests_total') as Counter;
  const duration = metrics.registry.getSingleMetric('dcledger_http_request_duration_seconds') as Histogram;
  const credits = metrics.registry.getSingleMetric('dcledger_credits_charged_total') as Counter;
  const limited = metrics.registry.getSingleMetric('dcledger_rate_limited_total') as Counter;
  // Synchronous, and one label object per series reused (no promise, no allocation per request):
  // every answer passes here.
  const series = new Map<string, { method: string; route: string; status: number }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    const status = reply.statusCode;
    const seriesKey = `${request.method} ${status} ${route}`;
    let labels = series.get(seriesKey);
    if (!labels) {
      labels = { method: request.method, route, status };
      series.set(seriesKey, labels);
    }
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    if (status === 429) limited.inc({ route });
    if (request.charged) {
      const charged = Number(reply.getHeader('x-credits-charged') ?? 0);
      if (charged > 0) credits.inc({ route }, charged);
    }
    done();
  });
}

function registerDatabaseGauges(registry: Registry, deps: AppDeps): void {
  // Every gauge below reads the same snapshot: a scrape collects all gauges at once, so they share
  // the queries in flight; the next scrape reads afresh.
  let snapshot: Promise<OperationalState> | undefined;
  const state = () => {
    if (!snapshot) {
      const now = deps.clock().toISOString();
      const current = operationalState(deps.db, now.slice(0, 10), { plans: WEBHOOK_PLANS, now });
      snapshot = current;
      void current.then(
        () => {
          snapshot = undefined;
        },
        () => {
          snapshot = undefined;
        },
      );
    }
    return snapshot;
  };
  const gauge = (
    name: string,
    help: string,
    labelNames: string[],
    fill: (gauge: Gauge, current: OperationalState) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        const current = await state();
        this.reset();
        fill(this, current);
      },
    });

  gauge(
    'dcledger_webhook_deliveries',
    'Webhook deliveries by status (pending, delivered, failed, cancelled)',
    ['status'],
    (g, s) => {
      for (const row of s.deliveriesByStatus) g.set({ status: row.key }, row.count);
    },
  );
  gauge(
    'dcledger_webhook_attempts',
    'Webhook delivery attempts by outcome (delivered, failed, gone, blocked)',
    ['outcome'],
    (g, s) => {
      for (const row of s.attemptsByOutcome) g.set({ outcome: row.key }, row.count);
    },
  );
  gauge(
    'dcledger_outbox_depth',
    'Events some subscription will receive, not fanned out yet, plus deliveries waiting to be sent',
    [],
    (g, s) => g.set(s.outboxDepth),
  );
  gauge(
    'dcledger_ingest_source_last_run',
    "1 for each source's last ingest status (ok, partial, failed, ...)",
    ['source', 'status'],
    (g, s) => {
      for (const source of s.ingestSources) g.set({ source: source.source, status: source.status }, 1);
    },
  );
  gauge(
    'dcledger_ingest_source_last_finished_seconds',
    "Unix time a source's last ingest run finished",
    ['source'],
    (g, s) => {
      for (const source of s.ingestSources) {
        if (source.finishedAt) g.set({ source: source.source }, Date.parse(source.finishedAt) / 1000);
      }
    },
  );
  gauge(
    'dcledger_ingest_documents',
    'Official documents by source and status (listed, stored)',
    ['source', 'status'],
    (g, s) => {
      for (const row of s.documentsByStatus) g.set({ source: row.source, status: row.status }, row.count);
    },
  );
  gauge(
    'dcledger_enrichment_pending_trades',
    'Trades never enriched or whose market fields are due again',
    [],
    (g, s) => g.set(s.enrichmentPending),
  );
  gauge(
    'dcledger_enrichment_jobs',
    'Enrichment jobs waiting (pending: at most one, requests fold into it) and running',
    ['status'],
    (g, s) => {
      g.set({ status: 'pending' }, s.enrichmentJobs.waiting);
      g.set({ status: 'running' }, s.enrichmentJobs.running);
    },
  );
  gauge(
    'dcledger_enrichment_job_age_seconds',
    'Age of the oldest enrichment job not finished (queued or running; 0 when none)',
    [],
    (g, s) => {
      const now = deps.clock().getTime();
      const since = s.enrichmentJobs.oldestOpenSince;
      g.set(since ? Math.max(0, (now - Date.parse(since)) / 1000) : 0);
    },
  );
  gauge(
    'dcledger_enrichment_lag_seconds',
    'Age of the oldest trade not enriched yet (0 when none waits)',
    [],
    (g, s) => {
      const now = deps.clock().getTime();
      const oldest = s.oldestUnenrichedAt ? Date.parse(s.oldestUnenrichedAt) : now;
      g.set(Math.max(0, (now - oldest) / 1000));
    },
  );
}
