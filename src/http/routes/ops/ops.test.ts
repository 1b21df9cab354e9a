import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../../accounts/rate-limit.js';
import { buildApp } from '../../../app.js';
import { defaultReadinessChecks, redisCheck } from '../../../services/readiness.js';
import { claimEnrichmentJob, enqueueEnrichmentJob } from '../../../storage/repositories/enrichment-jobs.js';
import { addAccount, type FixtureApp, openEmptyApp } from '../../../test-support/app.js';
import { freePort } from '../../../test-support/ports.js';
import { redisReady, startRedisServer, stopProcess } from '../../../test-support/redis.js';
import type { App } from '../../types.js';

async function readyz(app: App) {
  const response = await app.inject({ method: 'GET', url: '/readyz' });
  return {
    status: response.statusCode,
    body: response.json() as {
      detail?: string;
      status: string;
      checks: Array<{ name: string; ok: boolean }>;
    },
  };
}

function metricValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('health, readiness and metrics', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx?.close());

  it('answers /healthz and /readyz without a key, unmetered, checking the database and migrations', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok' });
    expect(health.headers['x-credits-charged']).toBeUndefined();
    const ready = await readyz(ctx.app);
    expect(ready.status).toBe(200);
    expect(ready.body.checks.map((check) => [check.name, check.ok])).toEqual([
      ['database', true],
      ['migrations', true],
    ]);
  });

  it('declares the probes and their 503 in /openapi.json, 503 on metered routes, and lists no probe as an endpoint', async () => {
    type Operation = { tags?: string[]; responses: Record<string, { headers?: Record<string, unknown> }> };
    const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const probe = document.paths['/readyz']?.get;
    expect(probe?.tags).toEqual(['operations']);
    expect(Object.keys(probe?.responses ?? {})).toEqual(expect.arrayContaining(['200', '503']));
    expect(document.paths['/healthz']?.get?.responses['200']).toBeDefined();
    expect(document.paths['/metrics']).toBeUndefined();
    // Redis down in a multi-instance deployment: every metered call may answer 503 with Retry-After.
    const metered = document.paths['/stats/summary']?.get?.responses['503'];
    expect(Object.keys(metered?.headers ?? {})).toContain('Retry-After');
    // The route catalog behind /credits/endpoints and the tools leaves the probes out.
    const listed = await ctx.app.inject({ method: 'GET', url: '/credits/endpoints' });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).toContain('/stats/summary');
    expect(listed.body).not.toContain('readyz');
    expect(listed.body).not.toContain('healthz');
  });

  it('is not ready while a migration is missing, and ready again once it is applied', async () => {
    const row = await ctx.store.db
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .where('name' as never, '=', '0015-idempotency' as never)
      .executeTakeFirstOrThrow();
    await ctx.store.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', '0015-idempotency' as never)
      .execute();
    try {
      const missing = await readyz(ctx.app);
      expect(missing.status).toBe(503);
      expect(missing.body.detail).toMatch(
        /^Not ready: migrations \(not applied: 0015-idempotency; run dcledger migrate\)/,
      );
    } finally {
      await ctx.store.db
        .insertInto('kysely_migration' as never)
        .values(row as never)
        .execute();
    }
    expect((await readyz(ctx.app)).status).toBe(200);
  });

  it.skipIf(!redisReady())(
    'fails /readyz with {detail} naming redis while Redis is down, and recovers when it is back',
    async () => {
      const port = await freePort();
      let redis = await startRedisServer(port);
      const app = await buildApp({
        db: ctx.store.db,
        dialect: ctx.store.dialect,
        clock: () => ctx.clock.now,
        rateLimits: new MemoryRateLimitStore(),
        webhooks: ctx.webhooks,
        readiness: [...defaultReadinessChecks(ctx.store.db), redisCheck(`redis://127.0.0.1:${port}/0`, 1000)],
      });
      try {
        const up = await readyz(app);
        expect(up.status).toBe(200);
        expect(up.body.checks.map((check) => check.name)).toEqual(['database', 'migrations', 'redis']);

        await stopProcess(redis);
        const down = await readyz(app);
        expect(down.status).toBe(503);
        expect(down.body.detail).toMatch(/^Not ready: redis \(/);
        expect(down.body.checks.find((check) => check.name === 'redis')?.ok).toBe(false);
        expect(down.body.checks.find((check) => check.name === 'database')?.ok).toBe(true);

        redis = await startRedisServer(port);
        expect((await readyz(app)).status).toBe(200);
      } finally {
        await app.close();
        await stopProcess(redis);
      }
    },
  );

  it('fails /readyz naming the database when its queries fail', async () => {
    const app = await buildApp({
      db: ctx.store.db,
      dialect: ctx.store.dialect,
      clock: () => ctx.clock.now,
      webhooks: ctx.webhooks,
      readiness: [
        {
          name: 'database',
          // A real query on a table that does not exist: the check reports the database's own error.
          check: async () => {
            await ctx.store.db
              .selectFrom('no_such_table' as never)
              .selectAll()
              .execute();
          },
        },
      ],
    });
    try {
      const answer = await readyz(app);
      expect(answer.status).toBe(503);
      expect(answer.body.detail).toMatch(/^Not ready: database \(.*no_such_table/);
    } finally {
      await app.close();
    }
  });

  it('counts requests by route pattern and status, credits charged and rate-limited calls', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const capped = await addAccount(ctx.store, ctx.clock, { plan: 'pro', dailyCap: 1 });
    const headers = { 'dc-api-key': account.key.api_key };
    const before = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    const summary = await ctx.app.inject({ method: 'GET', url: '/stats/summary', headers });
    expect(summary.statusCode).toBe(200);
    const charged = Number(summary.headers['x-credits-charged']);
    expect(charged).toBeGreaterThan(0);
    for (const id of ['nobody-1', 'nobody-2']) {
      await ctx.app.inject({ method: 'GET', url: `/politicians/${id}`, headers });
    }
    const refused = await ctx.app.inject({
      method: 'GET',
      url: '/stats/summary',
      headers: { 'dc-api-key': capped.key.api_key },
    });
    expect(refused.statusCode).toBe(429);

    const scrape = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scrape.headers['x-credits-charged']).toBeUndefined();
    const text = scrape.body;
    const delta = (series: string) => (metricValue(text, series) ?? 0) - (metricValue(before, series) ?? 0);
    expect(delta('dcledger_http_requests_total{method="GET",route="/stats/summary",status="200"}')).toBe(1);
    expect(delta('dcledger_http_requests_total{method="GET",route="/politicians/:id",status="404"}')).toBe(2);
    expect(text).not.toContain('nobody-1');
    expect(delta('dcledger_credits_charged_total{route="/stats/summary"}')).toBe(charged);
    expect(delta('dcledger_rate_limited_total{route="/stats/summary"}')).toBe(1);
    expect(text).toMatch(
      /dcledger_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/stats\/summary",status="200"\}/,
    );
  });

  it('reports outbox depth, ingest sources, documents by status and enrichment lag from the database', async () => {
    const stamp = ctx.clock.now.toISOString();
    await ctx.store.db
      .insertInto('ingest_state')
      .values({
        source: 'house_clerk',
        cursor: null,
        last_status: 'ok',
        last_started_at: stamp,
        last_finished_at: stamp,
        last_error: null,
        updated_at: stamp,
      })
      .execute();
    const text = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metricValue(text, 'dcledger_outbox_depth')).toBe(0);
    expect(metricValue(text, 'dcledger_ingest_source_last_run{source="house_clerk",status="ok"}')).toBe(1);
    expect(metricValue(text, 'dcledger_ingest_source_last_finished_seconds{source="house_clerk"}')).toBe(
      Date.parse(stamp) / 1000,
    );
    expect(metricValue(text, 'dcledger_enrichment_pending_trades')).toBe(0);
    expect(metricValue(text, 'dcledger_enrichment_lag_seconds')).toBe(0);
    expect(text).toContain('# TYPE dcledger_webhook_deliveries gauge');
    expect(text).toContain('# TYPE dcledger_ingest_documents gauge');
  });

  it('reports the enrichment job queue: jobs by status and the age of the oldest open one', async () => {
    const before = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metricValue(before, 'dcledger_enrichment_jobs{status="pending"}')).toBe(0);
    expect(metricValue(before, 'dcledger_enrichment_job_age_seconds')).toBe(0);
    const asked = new Date(ctx.clock.now.getTime() - 90_000).toISOString();
    const { id } = await enqueueEnrichmentJob(ctx.store.db, { full: false, requestedBy: 'test', now: asked });
    const claimed = await claimEnrichmentJob(ctx.store.db, {
      now: asked,
      dueBy: asked,
      token: 'metrics-test',
      leaseUntil: new Date(ctx.clock.now.getTime() + 60_000).toISOString(),
    });
    expect(claimed?.id).toBe(id);
    // Asked for while that one runs: it waits as the next job.
    await enqueueEnrichmentJob(ctx.store.db, {
      full: false,
      requestedBy: 'test',
      now: ctx.clock.now.toISOString(),
    });
    const text = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metricValue(text, 'dcledger_enrichment_jobs{status="running"}')).toBe(1);
    expect(metricValue(text, 'dcledger_enrichment_jobs{status="pending"}')).toBe(1);
    expect(metricValue(text, 'dcledger_enrichment_job_age_seconds')).toBe(90);
    await ctx.store.db.deleteFrom('enrichment_jobs').execute();
  });

  it('puts /metrics behind a bearer token when one is configured', async () => {
    const app = await buildApp({
      db: ctx.store.db,
      dialect: ctx.store.dialect,
      clock: () => ctx.clock.now,
      webhooks: ctx.webhooks,
      metricsToken: 'scrape-token-123',
    });
    try {
      const anonymous = await app.inject({ method: 'GET', url: '/metrics' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().detail).toMatch(/Bearer <DCLEDGER_METRICS_TOKEN>/);
      const wrong = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer nope' },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-token-123' },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('dcledger_http_requests_total');
    } finally {
      await app.close();
    }
  });
});
