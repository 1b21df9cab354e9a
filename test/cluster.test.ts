// The multi-process deployment of docs/deployment.md, for real: PostgreSQL, a redis-server of its
// own on 127.0.0.1, and `dcledger serve --role ...` processes started through the CLI — 2 api,
// 2 workers, 2 schedulers. Runs on the PostgreSQL run only (it needs a shared database).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '../src/accounts/admin.js';
import { readTestSettings } from '../src/config/test-settings.js';
import type { ReplayServer } from '../src/ingest/replay/server.js';
import { updatePlan } from '../src/storage/repositories/accounts.js';
import { leaseHolder, schedulerRuns } from '../src/storage/repositories/role-leases.js';
import { cliArgs } from '../src/test-support/cli.js';
import { openTestStore, type TestStore } from '../src/test-support/database.js';
import { freePort } from '../src/test-support/ports.js';
import {
  type PrivatePostgres,
  postgresBinDir,
  startPrivatePostgres,
} from '../src/test-support/private-postgres.js';
import { redisReady, startRedisServer, stopProcess } from '../src/test-support/redis.js';
import { startReplay } from '../src/test-support/replay.js';
import { requirement } from '../src/test-support/requirements.js';
import { TestReceiver } from '../src/test-support/webhooks.js';
import { LOBBYING_FILED_EXAMPLE } from '../src/webhooks/event-catalog.js';
import { emitTypedEvent, eventFor } from '../src/webhooks/events.js';

// The cluster runs on PostgreSQL: on the SQLite run it is skipped with one line (CI runs both).
const postgres = requirement(
  'PostgreSQL (DCLEDGER_TEST_DATABASE_URL)',
  readTestSettings().postgresUrl !== undefined,
  'it runs in the PostgreSQL run: DCLEDGER_TEST_DATABASE_URL=postgres://... npm test',
  { requiredInCi: false },
);
// The shared data directory as the test setup found it (CI clones the repo elsewhere).
const dataDir = inject('dataDir');
const ROOT = resolve(import.meta.dirname, '..');
const LEASE_MS = 3000;

interface Role {
  name: string;
  child: ChildProcess;
  output: string[];
  port?: number;
}

// The private PostgreSQL server of the /readyz sub-test (the shared one is never stopped).
const pgBin =
  postgres &&
  requirement(
    'initdb under /usr/lib/postgresql',
    postgresBinDir() !== undefined,
    'install: apt-get install postgresql',
  )
    ? postgresBinDir()
    : undefined;

async function waitUntil(
  what: string | (() => string),
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe.skipIf(!postgres || !dataDir || !redisReady())(
  'a cluster: 2 api, 2 workers, 2 schedulers on PostgreSQL and Redis',
  () => {
    let store: TestStore;
    let redis: ChildProcess | undefined;
    let redisPort = 0;
    let replay: ReplayServer;
    let archive: string;
    let env: Record<string, string>;
    const roles: Role[] = [];

    let privatePostgres: PrivatePostgres | undefined;
    const startRedis = () => startRedisServer(redisPort);

    function cli(args: string[], extra: Record<string, string> = {}): Role {
      // One node process per role (no wrapper around it), so that a kill reaches the role itself.
      const child = spawn(process.execPath, cliArgs(...args), {
        cwd: ROOT,
        env: { ...env, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const role: Role = { name: args.join(' '), child, output: [] };
      const keep = (chunk: Buffer) => role.output.push(chunk.toString());
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      roles.push(role);
      return role;
    }

    async function serve(
      role: 'api' | 'worker' | 'scheduler',
      extra: Record<string, string> = {},
    ): Promise<Role> {
      const port = await freePort();
      const started = cli(['serve', '--role', role], { ...extra, PORT: String(port) });
      started.port = port;
      await waitUntil(
        `${role} to start`,
        () => started.output.join('').includes(`dcledger ${role} role running`),
        // Each role compiles the TypeScript sources on start (tsx); a loaded 2-core machine is slow.
        180_000,
      );
      return started;
    }

    function exited(role: Role): Promise<void> {
      return new Promise((done) => {
        if (role.child.exitCode !== null || role.child.signalCode !== null) done();
        else role.child.once('exit', () => done());
      });
    }

    beforeAll(async () => {
      store = await openTestStore();
      if (store.config.kind !== 'postgres') throw new Error('the cluster test needs PostgreSQL');
      redisPort = await freePort();
      redis = await startRedis();
      replay = await startReplay(dataDir ?? '');
      archive = mkdtempSync(join(tmpdir(), 'dcledger-cluster-'));
      env = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        DATABASE_URL: store.config.url,
        DCLEDGER_REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        DCLEDGER_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
        DCLEDGER_WEBHOOK_TIMEOUT_MS: '2000',
        DCLEDGER_WEBHOOK_LEASE_MS: '4000',
        DCLEDGER_WEBHOOK_POLL_MS: '100',
        DCLEDGER_WEBHOOK_CONCURRENCY: '64',
        DCLEDGER_SCHEDULER_LEASE_MS: String(LEASE_MS),
        DCLEDGER_INGEST_INTERVAL_MINUTES: '60',
        DCLEDGER_INGEST_SOURCES: 'house',
        DCLEDGER_HOUSE_BASE_URL: replay.url,
        DCLEDGER_INGEST_SINCE: '2025-08-01',
        DCLEDGER_FETCH_RETRIES: '0',
        DCLEDGER_FETCH_INTERVAL_MS: '0',
        DCLEDGER_ARCHIVE_DIR: archive,
        // One webhook secret key for every role, created by the first to start (not in the archive's parent, tmpdir).
        DCLEDGER_WEBHOOK_SECRET_KEY_FILE: join(archive, 'webhook-secret.key'),
      };
      // Migrations run once, before the roles start, as in the deployment guide.
      const migrate = cli(['migrate']);
      await exited(migrate);
      expect(migrate.child.exitCode, migrate.output.join('')).toBe(0);
      await Promise.all([serve('api'), serve('api'), serve('worker'), serve('worker')]);
      await Promise.all([serve('scheduler'), serve('scheduler')]);
    }, 420_000);

    afterAll(async () => {
      for (const role of roles) role.child.kill('SIGKILL');
      await Promise.all(roles.map(exited));
      redis?.kill('SIGKILL');
      privatePostgres?.dispose();
      await replay?.close();
      if (archive) rmSync(archive, { recursive: true, force: true });
      await store?.dispose();
    });

    const apis = () => roles.filter((role) => role.name === 'serve --role api');

    /** What the workers logged that makes a delivery go out again (for a failing count). */
    function resendCauses(): string {
      const causes = new Map<string, number>();
      for (const role of roles.filter((each) => each.name === 'serve --role worker'))
        for (const line of role.output.join('').split('\n')) {
          const cause =
            /"msg":"(delivery lease lost[^"]*|delivery lease lapsed[^"]*|recording webhook outcomes failed|renewing webhook delivery leases failed|writing webhook outcomes failed; trying once more)"/.exec(
              line,
            )?.[1] ??
            (line.includes('webhook delivery failed') ? /"error":"([^"]*)"/.exec(line)?.[1] : undefined);
          const reason = /failed/.test(cause ?? '') ? /"message":"([^"]*)"/.exec(line)?.[1] : undefined;
          const key = reason ? `${cause}: ${reason}` : cause;
          if (key) causes.set(key, (causes.get(key) ?? 0) + 1);
        }
      return `resend causes in the workers' logs: ${JSON.stringify(Object.fromEntries(causes))}`;
    }
    const call = (index: number, path: string, key: string) => {
      const api = apis()[index % 2];
      return fetch(`http://127.0.0.1:${api?.port}${path}`, { headers: { 'dc-api-key': key } });
    };

    async function account(plan: 'none' | 'max', credits: number) {
      const created = await createAccount(
        store.db,
        { email: `cluster-${plan}-${credits}-${Date.now()}@example.org`, plan, credits, paid: true },
        new Date(),
      );
      // No monthly allowance: the balance is exactly the credits given.
      await updatePlan(
        store.db,
        created.account_id,
        {
          plan,
          trialEndsAt: null,
          periodStart: new Date().toISOString(),
          allowance: 0,
        },
        new Date().toISOString(),
      );
      return created.key.api_key;
    }

    /** Keeps a burst inside one per-minute window. */
    async function awayFromMinuteEdge() {
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 45_000) await new Promise((done) => setTimeout(done, 60_500 - intoMinute));
    }

    it('400 concurrent calls over both api instances against credits for exactly 100: 100 succeed', async () => {
      // GET /stats/summary costs a flat 5 credits; 500 credits pay for exactly 100 calls.
      const key = await account('max', 500);
      await awayFromMinuteEdge();
      const answers = await Promise.all(
        Array.from({ length: 400 }, (_, index) => call(index, '/stats/summary', key)),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(100);
      expect(statuses.filter((status) => status === 402)).toHaveLength(300);
      const balance = await call(0, '/credits/balance', key);
      expect(balance.status).toBe(200);
      expect(await balance.json()).toMatchObject({ credits: 0 });
    }, 60_000);

    it('holds the per-minute limit across instances (Redis counts for both)', async () => {
      // Plan none: 60 requests per minute, whichever instance answers.
      const key = await account('none', 100_000);
      await awayFromMinuteEdge();
      const answers = await Promise.all(
        Array.from({ length: 150 }, (_, index) => call(index, '/stats/summary', key)),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      expect(statuses.filter((status) => status === 429)).toHaveLength(90);
    }, 60_000);

    // A worker holds at most its concurrency (64) deliveries, claimed and not yet recorded, and keeps
    // their leases alive; only what the killed worker held is sent again.
    it('delivers 2,000 events to 5 subscriptions once each with a worker killed mid-batch', async () => {
      const key = await account('max', 10_000_000);
      const receiver = await TestReceiver.start();
      try {
        for (let n = 1; n <= 5; n++) {
          const created = await fetch(`http://127.0.0.1:${apis()[n % 2]?.port}/alerts/subscriptions`, {
            method: 'POST',
            headers: { 'dc-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify({
              delivery: 'webhook',
              alert_type: 'lobbying.filed',
              webhook_url: receiver.url(`/s${n}`),
              webhook_secret: 'cluster-test-secret-0123',
            }),
          });
          expect(created.status, await created.clone().text()).toBe(200);
        }
        const now = new Date().toISOString();
        for (let n = 1; n <= 2000; n++)
          await emitTypedEvent(
            store.db,
            eventFor('lobbying.filed', {
              ...LOBBYING_FILED_EXAMPLE,
              id: 900_000 + n,
              filing_uuid: `cluster-${n}`,
            }),
            now,
          );
        // Both workers take deliveries; one dies with deliveries in flight.
        await receiver.waitFor(3000, 120_000);
        const victim = roles.find((role) => role.name === 'serve --role worker');
        victim?.child.kill('SIGKILL');
        if (victim) await exited(victim);

        const pairs = new Map<string, Set<string>>();
        const pairOf = (index: number) => {
          const delivery = receiver.received[index];
          if (!delivery) return undefined;
          const body = JSON.parse(delivery.body.toString()) as { data: { id: number } };
          return `${delivery.path} ${body.data.id}`;
        };
        let seen = 0;
        await waitUntil(
          () =>
            `every (event, subscription) pair: ${pairs.size} of 10000 after ${receiver.received.length} deliveries`,
          () => {
            for (; seen < receiver.received.length; seen++) {
              const pair = pairOf(seen);
              const id = String(receiver.received[seen]?.headers['x-dcledger-delivery']);
              if (pair) pairs.set(pair, (pairs.get(pair) ?? new Set()).add(id));
            }
            return pairs.size >= 10_000;
          },
          240_000,
        );
        expect(pairs.size).toBe(10_000);
        // One delivery per pair: a resend after the kill carries the same delivery id, so receivers
        // that deduplicate on it (as documented) act on each event exactly once.
        expect([...pairs.values()].filter((ids) => ids.size !== 1)).toEqual([]);
        // Only what the killed worker had in flight (at most its concurrency, 64) is sent twice.
        expect(receiver.received.length - 10_000, resendCauses()).toBeLessThanOrEqual(64);
      } finally {
        await receiver.close();
      }
    }, 480_000);

    it('hands the schedule to the standby when the active scheduler dies, never two runs at once', async () => {
      const holderOf = async () => (await leaseHolder(store.db, 'scheduler'))?.holder;
      await waitUntil('a scheduler to hold the lease', async () => (await holderOf()) !== undefined, 10_000);
      const first = await holderOf();
      await waitUntil(
        'the first scheduled run',
        async () => (await schedulerRuns(store.db)).length > 0,
        30_000,
      );
      const schedulers = roles.filter((role) => role.name === 'serve --role scheduler');
      const active = schedulers.find(
        (role) => role.child.pid !== undefined && first?.includes(`:${role.child.pid}:`),
      );
      expect(active, `lease held by ${first}`).toBeDefined();
      active?.child.kill('SIGKILL');
      if (active) await exited(active);
      const killedAt = Date.now();

      await waitUntil(
        'the standby to take the lease',
        async () => {
          const holder = await holderOf();
          return holder !== undefined && holder !== first;
        },
        LEASE_MS * 3,
      );
      expect(Date.now() - killedAt).toBeLessThanOrEqual(LEASE_MS + LEASE_MS / 3 + 2000);
      const second = await holderOf();
      await waitUntil(
        'the standby to run',
        async () => (await schedulerRuns(store.db)).some((run) => run.holder === second),
        30_000,
      );
      const runs = await schedulerRuns(store.db);
      expect(new Set(runs.map((run) => run.holder))).toEqual(new Set([first, second]));
      // The dead scheduler's run ended with it (at the latest when it was killed): the standby's
      // first run starts after that.
      for (const run of runs.filter((row) => row.holder === second))
        expect(Date.parse(run.started_at)).toBeGreaterThanOrEqual(killedAt - 50);
      for (const run of runs.filter((row) => row.holder === first && row.finished_at !== null))
        expect(Date.parse(run.finished_at ?? '')).toBeLessThanOrEqual(killedAt);
    }, 90_000);

    it('answers 503 {detail} on metered calls while Redis is down, and recovers when it is back', async () => {
      const key = await account('max', 100_000);
      if (redis) await stopProcess(redis, 'SIGKILL');
      const refused = await call(0, '/stats/summary', key);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ detail: expect.stringContaining('rate-limit store') });
      // Neither api instance is ready without Redis: a load balancer takes them out of rotation.
      for (const api of apis()) {
        const notReady = await fetch(`http://127.0.0.1:${api.port}/readyz`);
        expect(notReady.status).toBe(503);
        expect(await notReady.json()).toMatchObject({ detail: expect.stringContaining('redis') });
      }
      redis = await startRedis();
      await waitUntil(
        'metered calls to work again',
        async () =>
          (await call(1, '/stats/summary', key)).status === 200 &&
          (await call(0, '/stats/summary', key)).status === 200,
        20_000,
      );
      for (const api of apis()) expect((await fetch(`http://127.0.0.1:${api.port}/readyz`)).status).toBe(200);
    }, 60_000);

    it.skipIf(!pgBin)(
      'answers 503 on /readyz while its PostgreSQL is stopped, and 200 once it is back',
      async () => {
        // An api instance of its own on a private PostgreSQL server: stopping the shared one would
        // pull the database from under everything else on the machine.
        privatePostgres = await startPrivatePostgres(pgBin ?? '');
        const own = { DATABASE_URL: privatePostgres.url };
        const migrate = cli(['migrate'], own);
        await exited(migrate);
        expect(migrate.child.exitCode, migrate.output.join('')).toBe(0);
        const api = await serve('api', own);
        const readyz = () => fetch(`http://127.0.0.1:${api.port}/readyz`);
        expect((await readyz()).status).toBe(200);
        privatePostgres.stop();
        const down = await readyz();
        expect(down.status).toBe(503);
        expect(await down.json()).toMatchObject({
          detail: expect.stringContaining('database'),
          status: 'not_ready',
        });
        privatePostgres.start();
        await waitUntil('/readyz to answer 200 again', async () => (await readyz()).status === 200, 20_000);
        await stopProcess(api.child);
      },
      240_000,
    );
  },
);
