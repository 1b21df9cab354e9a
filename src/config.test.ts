import { describe, expect, it } from 'vitest';
import { ConfigError, readWebhookSettings } from './config.js';

describe('webhook settings', () => {
  it('defaults: nothing exempt, no key, 15 s timeout, lease beyond it, worker on in serve', () => {
    expect(readWebhookSettings({})).toEqual({
      allowCidrs: [],
      secretKey: null,
      timeoutMs: 15_000,
      concurrency: 32,
      leaseMs: 75_000,
      pollMs: 1000,
      workerInServe: true,
    });
  });

  it('reads the secret key as hex or base64, and refuses anything but 32 bytes', () => {
    const hex = 'ab'.repeat(32);
    expect(readWebhookSettings({ DCLEDGER_WEBHOOK_SECRET_KEY: hex }).secretKey).toEqual(
      Buffer.from(hex, 'hex'),
    );
    const base64 = Buffer.alloc(32, 9).toString('base64');
    expect(readWebhookSettings({ DCLEDGER_WEBHOOK_SECRET_KEY: base64 }).secretKey).toEqual(
      Buffer.alloc(32, 9),
    );
    expect(() => readWebhookSettings({ DCLEDGER_WEBHOOK_SECRET_KEY: 'short' })).toThrow(ConfigError);
  });

  it('refuses a lease no longer than the timeout, and bad numbers and switches', () => {
    expect(() =>
      readWebhookSettings({ DCLEDGER_WEBHOOK_TIMEOUT_MS: '5000', DCLEDGER_WEBHOOK_LEASE_MS: '5000' }),
    ).toThrow(/LEASE_MS/);
    expect(readWebhookSettings({ DCLEDGER_WEBHOOK_TIMEOUT_MS: '5000' }).leaseMs).toBe(65_000);
    expect(() => readWebhookSettings({ DCLEDGER_WEBHOOK_CONCURRENCY: '0' })).toThrow(ConfigError);
    expect(readWebhookSettings({ DCLEDGER_WEBHOOK_WORKER: 'off' }).workerInServe).toBe(false);
    expect(() => readWebhookSettings({ DCLEDGER_WEBHOOK_WORKER: 'maybe' })).toThrow(ConfigError);
  });
});
