// A webhook secret that is all whitespace or holds control characters is refused (422 naming it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';

describe('webhook secret shape', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx.close());

  for (const [label, secret] of [
    ['spaces', ' '.repeat(20)],
    ['tabs and newlines', '\t\n\t\n\t\n\t\n\t\n\t\n\t\n\t\n'],
    ['a control character', `abcdefgh\u0001ijklmnopq`],
    ['DEL', `abcdefgh\u007fijklmnopq`],
  ] as const) {
    it(`refuses ${label}`, async () => {
      const response = await requestJson<{ field: string; code: string }>(ctx, {
        method: 'POST',
        url: '/alerts/subscriptions',
        body: { alert_type: 'trade.created', webhook_url: 'http://127.0.0.1:9/hook', webhook_secret: secret },
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ field: 'webhook_secret', code: 'unprocessable' });
    });
  }

  it('accepts a secret with inner spaces', async () => {
    const response = await requestJson(ctx, {
      method: 'POST',
      url: '/alerts/subscriptions',
      body: {
        alert_type: 'trade.created',
        webhook_url: 'http://127.0.0.1:9/hook',
        webhook_secret: 'correct horse battery staple',
      },
    });
    expect(response.status).toBe(200);
  });
});
