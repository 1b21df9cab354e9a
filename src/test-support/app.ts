// An app over a copy of the real-data fixture (or an empty database), with a key that reaches
// everything, for route tests.
import { inject } from 'vitest';
import { createAccount } from '../accounts/admin.js';
import { outboxMailer } from '../accounts/mailer.js';
import { manualProvider } from '../accounts/payments.js';
import { MemoryRateLimitStore } from '../accounts/rate-limit.js';
import { type BuildOptions, buildApp } from '../app.js';
import type { Plan } from '../domain/plans.js';
import type { App } from '../http/types.js';
import type { AnalyticsRunner } from '../services/analytics-tasks.js';
import type { WebhookRuntime } from '../webhooks/runtime.js';
import { openTestStore, type TestStore } from './database.js';
import { FIXTURE_NOW } from './real-data.js';
import { testWebhookRuntime } from './webhooks.js';

export interface TestClock {
  now: Date;
  advance(ms: number): void;
}

export function testClock(start: Date = FIXTURE_NOW): TestClock {
  const clock = {
    now: new Date(start),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
  return clock;
}

export interface FixtureApp {
  app: App;
  store: TestStore;
  clock: TestClock;
  /** A max-plan key with ample credits and no practical daily cap. */
  key: string;
  /** What the webhook routes use (127.0.0.1/32 exempt from the SSRF guard, no DNS). */
  webhooks: WebhookRuntime;
  close(): Promise<void>;
}

export interface AppOptions {
  /** Replaces the default test webhook runtime (closed with the app). */
  webhooks?: WebhookRuntime;
  /** The development mailbox secret (unset: no /ui/mailbox page, as with SMTP configured). */
  devMailboxToken?: string;
  /** Fastify's logger options (e.g. `loggerOptions` over a captured stream); none by default. */
  logger?: BuildOptions['logger'];
  /** Where the heavy analytics run (a worker-thread pool over `store.config`); default: in process. */
  analytics?: (store: TestStore) => AnalyticsRunner;
}

/** False without the fixture, and when no global setup provided one (vitest.mutate.config.ts). */
export function realDataAvailable(): boolean {
  return (inject('fixture') ?? null) !== null;
}

let accountCounter = 0;

export async function addAccount(
  store: TestStore,
  clock: TestClock,
  options: { plan?: Plan; credits?: number; dailyCap?: number; paid?: boolean } = {},
) {
  accountCounter += 1;
  return createAccount(
    store.db,
    {
      email: `tester${accountCounter}-${Date.now()}@example.org`,
      plan: options.plan ?? 'max',
      credits: options.credits ?? 10_000_000,
      dailyCap: options.dailyCap ?? 1_000_000_000,
      paid: options.paid ?? true,
    },
    clock.now,
  );
}

async function openApp(fixture: boolean, start: Date, options: AppOptions): Promise<FixtureApp> {
  const location = fixture ? inject('fixture') : undefined;
  if (fixture && !location) throw new Error('real-data fixture not built (shared data missing)');
  const store = await openTestStore(location ?? undefined);
  const clock = testClock(start);
  const account = await addAccount(store, clock);
  const webhooks = options.webhooks ?? testWebhookRuntime();
  const app = await buildApp(
    {
      db: store.db,
      dialect: store.dialect,
      clock: () => clock.now,
      rateLimits: new MemoryRateLimitStore(),
      webhooks,
      ...(options.analytics ? { analytics: options.analytics(store) } : {}),
      ...(options.devMailboxToken
        ? {
            selfService: {
              mailer: outboxMailer(store.db, () => clock.now),
              payments: manualProvider,
              devMailboxToken: options.devMailboxToken,
            },
          }
        : {}),
    },
    { logger: options.logger },
  );
  return {
    app,
    store,
    clock,
    key: account.key.api_key,
    webhooks,
    close: async () => {
      await app.close();
      await webhooks.sender.close();
      await store.dispose();
    },
  };
}

export function openFixtureApp(start: Date = FIXTURE_NOW, options: AppOptions = {}): Promise<FixtureApp> {
  return openApp(true, start, options);
}

export function openEmptyApp(start: Date = FIXTURE_NOW, options: AppOptions = {}): Promise<FixtureApp> {
  return openApp(false, start, options);
}

export async function getJson<T = unknown>(
  ctx: { app: App; key?: string },
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
  return requestJson<T>(ctx, { method: 'GET', url }, headers);
}

/** A request to the app; `body` (when given) is sent as JSON. */
export interface TestRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  body?: unknown;
  /** Extra request headers (e.g. the Accept an MCP client sends). */
  headers?: Record<string, string>;
}

export async function requestJson<T = unknown>(
  ctx: { app: App; key?: string },
  request: TestRequest,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
  const response = await ctx.app.inject({
    method: request.method,
    url: request.url,
    headers: { ...(ctx.key ? { 'dc-api-key': ctx.key } : {}), ...request.headers, ...headers },
    ...(request.body === undefined ? {} : { payload: request.body as object }),
  });
  // A download (CSV, NDJSON) is handed over as text; everything else the API answers is JSON.
  const download = /text\/csv|ndjson/.test(String(response.headers['content-type'] ?? ''));
  return {
    status: response.statusCode,
    body: (download ? response.body : response.json()) as T,
    headers: response.headers,
  };
}
