// verifyWebhook's replay protection cannot be stripped, and its window is exactly 300 s.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOLERANCE_SECONDS, signedHeaders, verifyWebhook } from './verify.js';

const secret = 'whsec_Ym91bmRhcnktdGVzdC1zZWNyZXQtMDEyMzQ1Njc4OQ==';
const body = JSON.stringify({ event: 'trade.created', data: { id: 7 } });
const signedAt = 1_800_000_000;

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

const headers = lowerCased(
  signedHeaders({ event: 'trade.created', deliveryId: 'dlv_1', timestamp: signedAt, rawBody: body, secret }),
);

describe('verifyWebhook replay window', () => {
  it('accepts exactly 300 s either side and refuses 301 s', () => {
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
    for (const offset of [-300, 0, 300]) {
      const result = verifyWebhook(body, headers, secret, { now: () => (signedAt + offset) * 1000 });
      expect({ offset, ok: result.ok }).toEqual({ offset, ok: true });
    }
    for (const offset of [-301, 301]) {
      const result = verifyWebhook(body, headers, secret, { now: () => (signedAt + offset) * 1000 });
      expect({ offset, ok: result.ok }).toEqual({ offset, ok: false });
    }
  });

  it('refuses a delivery whose timestamped signature, timestamp or id was stripped', () => {
    const now = () => signedAt * 1000;
    for (const stripped of [
      'x-dcledger-signature-timestamped',
      'x-dcledger-timestamp',
      'x-dcledger-delivery',
    ]) {
      const rest = { ...headers };
      delete rest[stripped];
      expect({ stripped, ok: verifyWebhook(body, rest, secret, { now }).ok }).toEqual({
        stripped,
        ok: false,
      });
    }
  });

  it('refuses a fresh timestamp on a captured body signature', () => {
    const replayed = { ...headers, 'x-dcledger-timestamp': String(signedAt + 1000) };
    const result = verifyWebhook(body, replayed, secret, { now: () => (signedAt + 1000) * 1000 });
    expect(result.ok).toBe(false);
  });
});
