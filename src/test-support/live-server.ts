// A dcledger server for client tests written in other languages (the Python client's pytest
// fixture starts it): the real app over a fresh database holding the real-data fixture, listening
// on 127.0.0.1 on a free port, with the API tests' fixed clock and webhook runtime (127.0.0.1
// receivers allowed, no DNS).
//
//   node --import tsx src/test-support/live-server.ts
//
// prints one JSON line, {"url", "api_key", "core_api_key", "now"} (now: the server's fixed clock in
// Unix seconds), when it listens, and stops when its
// standard input closes (so a test runner that dies takes it along). The database is a copy of the
// fixture named by DCLEDGER_LIVE_FIXTURE (a FixtureLocation as JSON, which the vitest run passes
// on) or, without it, one built here from the shared data (slower). DCLEDGER_TEST_DATABASE_URL
// selects PostgreSQL as for every test.
import type { AddressInfo } from 'node:net';
import { createAccount } from '../accounts/admin.js';
import { MemoryRateLimitStore } from '../accounts/rate-limit.js';
import { buildApp } from '../app.js';
import { requireDataDir } from './data-dir.js';
import { createFixtureStore, type FixtureLocation, openTestStore } from './database.js';
import { FIXTURE_NOW, loadRealData } from './real-data.js';
import { testWebhookRuntime } from './webhooks.js';

async function fixtureLocation(): Promise<{ location: FixtureLocation; drop?: () => Promise<void> }> {
  const given = process.env.DCLEDGER_LIVE_FIXTURE;
  if (given) return { location: JSON.parse(given) as FixtureLocation };
  const built = await createFixtureStore();
  await loadRealData(built.store.db, requireDataDir());
  await built.store.close();
  return { location: built.location, drop: built.drop };
}

async function main(): Promise<void> {
  const fixture = await fixtureLocation();
  const store = await openTestStore(fixture.location);
  const now = () => new Date(FIXTURE_NOW);
  const account = (plan: 'max' | 'core', email: string) =>
    createAccount(
      store.db,
      { email, plan, credits: 10_000_000, dailyCap: 1_000_000_000, paid: true },
      FIXTURE_NOW,
    );
  const max = await account('max', `python-max-${process.pid}@example.org`);
  const core = await account('core', `python-core-${process.pid}@example.org`);
  const webhooks = testWebhookRuntime();
  const app = await buildApp({
    db: store.db,
    dialect: store.dialect,
    clock: now,
    rateLimits: new MemoryRateLimitStore(),
    webhooks,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await webhooks.sender.close();
    await store.dispose();
    await fixture.drop?.();
    process.exit(0);
  };
  process.stdin.on('end', close);
  process.stdin.on('close', close);
  process.on('SIGTERM', close);
  process.stdin.resume();
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${port}`, api_key: max.key.api_key, core_api_key: core.key.api_key, now: FIXTURE_NOW.getTime() / 1000 })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
