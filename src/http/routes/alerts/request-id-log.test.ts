// A test delivery is sent inside the HTTP request that asked for it: its outcome line carries that
// request's id (`reqId`, also the X-Request-Id header) next to the delivery id, so one search
// follows a request to the delivery it made. The log is a real pino logger on a captured stream.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../../logging.js';
import { addAccount, type FixtureApp, openEmptyApp, requestJson } from '../../../test-support/app.js';
import { TestReceiver } from '../../../test-support/webhooks.js';

interface Line {
  msg: string;
  reqId?: string;
  delivery?: string;
  subscription?: number;
  test?: boolean;
  status_code?: number | null;
}

describe('request ids on test delivery log lines', () => {
  const raw: string[] = [];
  const lines = () =>
    raw
      .join('')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Line);
  let ctx: FixtureApp;
  let receiver: TestReceiver | undefined;
  beforeAll(async () => {
    ctx = await openEmptyApp(undefined, {
      logger: loggerOptions('info', { write: (line: string) => raw.push(line) > 0 }),
    });
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });
  afterAll(async () => ctx?.close());

  it('the delivery line of POST /alerts/subscriptions/{id}/test carries the request id, for success and failure', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const headers = { 'dc-api-key': account.key.api_key };
    receiver = await TestReceiver.start((_delivery, index) => ({ status: index === 0 ? 204 : 500 }));
    const created = await requestJson<{ id: number }>(
      ctx,
      {
        method: 'POST',
        url: '/alerts/subscriptions',
        body: { alert_type: 'trade.created', delivery: 'webhook', webhook_url: receiver.url() },
      },
      headers,
    );
    expect(created.status).toBe(200);
    const url = `/alerts/subscriptions/${created.body.id}/test`;

    for (const [expected, message] of [
      [204, 'webhook test delivered'],
      [500, 'webhook test delivery failed'],
    ] as const) {
      const sent = await requestJson<{ delivery_id: string }>(ctx, { method: 'POST', url }, headers);
      expect(sent.status).toBe(200);
      const requestId = sent.headers['x-request-id'];
      expect(requestId).toEqual(expect.any(String));
      const line = lines().find((entry) => entry.delivery === sent.body.delivery_id);
      expect(line).toMatchObject({
        msg: message,
        reqId: requestId,
        subscription: created.body.id,
        test: true,
        status_code: expected,
      });
      // The request's own lines carry the same id: request → delivery in one search.
      const ofRequest = lines().filter((entry) => entry.reqId === requestId);
      expect(ofRequest.map((entry) => entry.msg)).toEqual(
        expect.arrayContaining(['incoming request', message, 'request completed']),
      );
    }
    expect(receiver.received).toHaveLength(2);
  });
});
