// The service's log never carries an API key or a webhook secret, wherever a client put it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import type { App } from './http/types.js';
import { loggerOptions, redactSecrets } from './logging.js';
import { addAccount, testClock } from './test-support/app.js';
import { openTestStore, type TestStore } from './test-support/database.js';

describe('log redaction', () => {
  const lines: string[] = [];
  let app: App;
  let store: TestStore;
  let key: string;
  beforeAll(async () => {
    store = await openTestStore();
    const clock = testClock();
    key = (await addAccount(store, clock)).key.api_key;
    app = await buildApp(
      { db: store.db, dialect: store.dialect, clock: () => clock.now },
      { logger: loggerOptions('trace', { write: (line: string) => lines.push(line) > 0 }) },
    );
  });
  afterAll(async () => {
    await app.close();
    await store.dispose();
  });

  it('a key in the query string, a header, the path or a body is not in the log', async () => {
    const secret = 'whsec_c2VjcmV0LXRoYXQtbXVzdC1ub3QtbGVhaw';
    await app.inject({ url: `/trades?api_key=${key}&limit=1` });
    await app.inject({ url: `/trades?limit=1&token=plain-token-value` });
    await app.inject({ url: `/no-such-route/${key}` });
    await app.inject({ url: `/trades/%zz${key}` });
    await app.inject({ url: '/trades?limit=1', headers: { 'dc-api-key': key } });
    await app.inject({ url: '/trades?limit=1', headers: { authorization: `Bearer ${key}` } });
    await app.inject({
      method: 'POST',
      url: '/alerts/subscriptions',
      headers: { 'dc-api-key': key, 'content-type': 'application/json' },
      payload: { webhook_url: 'http://127.0.0.1:9/hook', webhook_secret: secret, alert_type: 'trade' },
    });
    app.log.info({ note: `client sent ${key} and ${secret}` }, `message with ${key}`);
    const log = lines.join('');
    expect(log).toContain('incoming request');
    expect(log).toContain('dc_[redacted]');
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(3));
    expect(log).not.toContain(secret);
    expect(log).not.toContain('plain-token-value');
  });

  it('redactSecrets keeps the rest of the line', () => {
    expect(redactSecrets('GET /trades?limit=5&api_key=dc_abcDEF123_-xyzuvw9876&sort=asc')).toBe(
      'GET /trades?limit=5&api_key=dc_[redacted]&sort=asc',
    );
    expect(redactSecrets('"authorization":"Bearer abc.def"')).toBe('"authorization":"Bearer [redacted]"');
    expect(redactSecrets('/politicians/nancy-pelosi?key=hunter2')).toBe(
      '/politicians/nancy-pelosi?key=[redacted]',
    );
    expect(redactSecrets('ordinary text with dc_ alone')).toBe('ordinary text with dc_ alone');
  });

  it('a key percent-encoded in any parameter, and password-like parameters, are redacted', async () => {
    const encoded = `dc%5F${key.slice(3)}`;
    await app.inject({ url: `/trades?limit=1&x=${encoded}` });
    await app.inject({ url: `/trades?limit=1&note=${encodeURIComponent(encoded)}` });
    await app.inject({ url: '/trades?limit=1&passwd=hunter2-passwd&pwd=hunter2-pwd&Pass%77ord=hunter2-enc' });
    const log = lines.join('');
    expect(log).not.toContain(key.slice(3));
    expect(log).not.toContain(key.slice(3, 20));
    for (const value of ['hunter2-passwd', 'hunter2-pwd', 'hunter2-enc']) expect(log).not.toContain(value);
    expect(redactSecrets('GET /trades?x=dc%5FabcDEF123_-xyzuvw9876&limit=5')).toBe(
      'GET /trades?x=[redacted]&limit=5',
    );
    expect(redactSecrets('GET /trades?limit=5&sort_by=ticker&q=50%25')).toBe(
      'GET /trades?limit=5&sort_by=ticker&q=50%25',
    );
  });
});
