// The webhook outbox depth counts only events some subscription will receive, by the fan-out's
// rules; events stored before every subscription or that nobody's subscription matches are never
// sent and do not count. Each exclusion is lifted once to show the event it held back then counts.
// Runs on the test database (SQLite, or PostgreSQL with DCLEDGER_TEST_DATABASE_URL).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../accounts/admin.js';
import { WEBHOOK_PLANS } from '../../accounts/plans.js';
import type { Plan } from '../../domain/plans.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { emitEvent } from './events.js';
import { webhookOutboxDepth } from './operations.js';
import { latestEventId, markFannedOut } from './webhook-fanout.js';
import { insertSubscription } from './webhook-subscriptions.js';

const NOW = '2026-06-01T12:00:00.000Z';

describe('webhook outbox depth', () => {
  let store: TestStore;
  let counter = 0;

  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(async () => {
    await store.dispose();
  });

  const depth = () => webhookOutboxDepth(store.db, { plans: WEBHOOK_PLANS, now: NOW });

  async function event(type: string, fields: { ticker?: string; slug?: string; data?: unknown } = {}) {
    counter += 1;
    await emitEvent(
      store.db,
      {
        type,
        subjectKey: `test:${counter}`,
        ticker: fields.ticker ?? null,
        politicianSlug: fields.slug ?? null,
        data: fields.data ?? { id: counter },
      },
      NOW,
    );
    return latestEventId(store.db);
  }

  async function subscribe(type: string, options: { plan?: Plan; filter?: string } = {}) {
    counter += 1;
    const created = await createAccount(
      store.db,
      { email: `outbox${counter}@example.org`, plan: options.plan ?? 'pro', paid: true },
      new Date(NOW),
    );
    const subscription = await insertSubscription(store.db, {
      account_id: created.account_id,
      key_id: created.key.key_id,
      alert_type: type,
      delivery: 'webhook',
      webhook_url: 'https://hooks.example.org/x',
      filter_value: options.filter ?? null,
      secret: 'constructed-test-secret',
      secret_rotated_at: null,
      status: 'active',
      status_reason: null,
      start_event_id: await latestEventId(store.db),
      failing_since: null,
      disabled_at: null,
      last_success_at: null,
      last_failure_at: null,
      created_at: NOW,
      updated_at: NOW,
      deleted_at: null,
    });
    return { accountId: created.account_id, keyId: created.key.key_id, id: subscription.id };
  }

  it('leaves out events from before every subscription and events no subscription matches', async () => {
    // A backlog written before anyone subscribed: never sent.
    for (let index = 0; index < 5; index += 1) await event('trade.created', { ticker: 'NVDA' });
    expect(await depth()).toEqual({ events: 0, deliveries: 0 });

    await subscribe('trade.created');
    await subscribe('trade.created', { filter: 'AAPL' });
    await subscribe('disclosure.detected', { filter: 'msft' });
    const counted = [
      await event('trade.created', { ticker: 'NVDA' }), // the unfiltered subscription
      await event('disclosure.detected', { data: { tickers: ['MSFT'] } }), // the filter, in data.tickers
    ];
    await event('insider.filed', { ticker: 'NVDA' }); // nobody subscribes to the type
    await event('disclosure.detected', { data: { tickers: ['TSLA'] } }); // the filter does not match
    expect(await depth()).toEqual({ events: 2, deliveries: 0 });

    // Fanned out: no longer waiting as an event.
    await markFannedOut(store.db, counted.slice(0, 1), NOW);
    expect((await depth()).events).toBe(1);
  });

  it('counts an event only while a receiving subscription of a webhook plan, unrevoked key and matching filter exists', async () => {
    const nobody = async () => expect((await depth()).events).toBe(0);

    const core = await subscribe('whale.filed', { plan: 'core' });
    await event('whale.filed', { ticker: 'NVDA' });
    await nobody();
    await store.db.updateTable('accounts').set({ plan: 'pro' }).where('id', '=', core.accountId).execute();
    expect((await depth()).events).toBe(1);
    // A trial that has ended leaves the account without a plan.
    await store.db
      .updateTable('accounts')
      .set({ trial_ends_at: '2026-05-01T00:00:00.000Z' })
      .where('id', '=', core.accountId)
      .execute();
    await nobody();
    await store.db
      .updateTable('accounts')
      .set({ trial_ends_at: null })
      .where('id', '=', core.accountId)
      .execute();
    expect((await depth()).events).toBe(1);

    await store.db.updateTable('api_keys').set({ revoked_at: NOW }).where('id', '=', core.keyId).execute();
    await nobody();
    await store.db.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', core.keyId).execute();

    for (const [status, receives] of [
      ['disabled', false],
      ['failing', true],
      ['active', true],
    ] as const) {
      await store.db.updateTable('webhook_subscriptions').set({ status }).where('id', '=', core.id).execute();
      expect((await depth()).events, status).toBe(receives ? 1 : 0);
    }
    await store.db
      .updateTable('webhook_subscriptions')
      .set({ deleted_at: NOW })
      .where('id', '=', core.id)
      .execute();
    await nobody();
  });

  it('matches a filter to the ticker or the member slug, whatever the case', async () => {
    await subscribe('trade.created', { filter: 'nancy-pelosi' });
    await subscribe('lobbying.filed', { filter: 'aapl' });
    await event('trade.created', { ticker: 'NVDA', slug: 'Nancy-Pelosi' });
    await event('trade.created', { ticker: 'NVDA', slug: 'dan-crenshaw' });
    await event('lobbying.filed', { ticker: 'AAPL' });
    expect(await depth()).toEqual({ events: 2, deliveries: 0 });
  });
});
