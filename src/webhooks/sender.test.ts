// The sender's deadline covers the whole answer: real receivers on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { type Answer, TestReceiver, testWebhookRuntime } from '../test-support/webhooks.js';
import { ANSWER_BODY_GRACE_MS } from './sender.js';

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answer: () => Answer) {
  const started = await TestReceiver.start(answer);
  receivers.push(started);
  return started;
}

describe('the webhook sender', () => {
  it('fails a 200 whose body trickles, soon after the status, not at the deadline', async () => {
    const hooks = await receiver(() => ({ status: 200, trickle: 100 }));
    const runtime = testWebhookRuntime({ timeoutMs: 20_000 });
    try {
      const result = await runtime.sender.send({ url: hooks.url(), body: '{}', headers: {} });
      expect(result).toMatchObject({
        ok: false,
        statusCode: 200,
        blocked: false,
        error: `answer body not complete within ${ANSWER_BODY_GRACE_MS} ms of the status (deadline 20000 ms)`,
      });
      // The slot is given back about a second after the status, far from the 20 s deadline.
      expect(result.latencyMs).toBeGreaterThanOrEqual(ANSWER_BODY_GRACE_MS - 10);
      expect(result.latencyMs).toBeLessThan(10_000);
    } finally {
      await runtime.sender.close();
    }
  });

  it('never waits for a body past the total deadline', async () => {
    const hooks = await receiver(() => ({ status: 200, trickle: 50 }));
    const runtime = testWebhookRuntime({ timeoutMs: 300 });
    try {
      const result = await runtime.sender.send({ url: hooks.url(), body: '{}', headers: {} });
      expect(result.ok).toBe(false);
      expect(result.latencyMs).toBeLessThan(ANSWER_BODY_GRACE_MS);
    } finally {
      await runtime.sender.close();
    }
  });

  it('counts an answer that arrived whole as delivered', async () => {
    const hooks = await receiver(() => ({ status: 200 }));
    const runtime = testWebhookRuntime({ timeoutMs: 5_000 });
    try {
      expect(await runtime.sender.send({ url: hooks.url(), body: '{}', headers: {} })).toMatchObject({
        ok: true,
        statusCode: 200,
      });
    } finally {
      await runtime.sender.close();
    }
  });
});
