// Deliveries verify with the official `standardwebhooks` package, unchanged, using the secret the
// service generated; the X-DCLedger-Signature header stays beside the Standard headers.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';
import { TestReceiver } from '../test-support/webhooks.js';
import { generateSecret } from './secrets.js';
import { signedHeaders } from './verify.js';

function headerRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') record[name] = value;
  }
  return record;
}

describe('Standard Webhooks', () => {
  let ctx: FixtureApp;
  let receiver: TestReceiver;
  beforeAll(async () => {
    // The real clock: the package checks the timestamp against its own now.
    ctx = await openEmptyApp(new Date());
    receiver = await TestReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it('a real test delivery verifies with the standardwebhooks package and the generated secret', async () => {
    const created = await requestJson<{ id: number; webhook_secret: string }>(ctx, {
      method: 'POST',
      url: '/alerts/subscriptions',
      body: { alert_type: 'trade.created', delivery: 'webhook', webhook_url: receiver.url() },
    });
    expect(created.status).toBe(200);
    const secret = created.body.webhook_secret;
    expect(secret).toMatch(/^whsec_/);
    const sent = await requestJson(ctx, {
      method: 'POST',
      url: `/alerts/subscriptions/${created.body.id}/test`,
    });
    expect(sent.status).toBeLessThan(300);
    await receiver.waitFor(1);
    const delivery = receiver.received[0];
    if (!delivery) throw new Error('no delivery');
    const headers = headerRecord(delivery.headers);
    const verified = new Webhook(secret).verify(delivery.body.toString('utf8'), headers) as { event: string };
    expect(verified.event).toBe('trade.created');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(headers['webhook-id']).toBe(headers['x-dcledger-delivery']);
    // The existing header is kept: hex HMAC-SHA256 of the raw body with the secret string.
    expect(headers['x-dcledger-signature']).toBe(
      createHmac('sha256', secret).update(delivery.body).digest('hex'),
    );
    // A tampered body fails.
    expect(() => new Webhook(secret).verify(`${delivery.body.toString('utf8')} `, headers)).toThrow();
  });

  it('signedHeaders verify for generated secrets', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ event: 'trade.created', data: { id: 1 } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = signedHeaders({
      event: 'trade.created',
      deliveryId: 'msg_1',
      timestamp,
      rawBody: body,
      secret,
    });
    const lower = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
    expect(new Webhook(secret).verify(body, lower)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, lower)).toThrow();
  });
});
