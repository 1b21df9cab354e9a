import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signedHeaders, verifyWebhook } from './verify.js';

const secret = 'whsec_test-secret-for-verification';
const body = JSON.stringify({ event: 'trade.created', data: { id: 7, ticker: 'NVDA' } });
const NOW = 1_780_000_000_000;

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function delivery(overrides: { body?: string; timestamp?: number } = {}) {
  const raw = overrides.body ?? body;
  return {
    raw,
    headers: lowerCased(
      signedHeaders({
        event: 'trade.created',
        deliveryId: '0f6f8a50-7d0b-4a57-9b1e-5b8c4d3a2e10',
        timestamp: overrides.timestamp ?? NOW / 1000,
        rawBody: raw,
        secret,
      }),
    ),
  };
}

describe('webhook signatures', () => {
  it('signs the exact body with hex HMAC-SHA256, and the delivery id and timestamp with it', () => {
    const { headers } = delivery();
    expect(headers['x-dcledger-signature']).toBe(createHmac('sha256', secret).update(body).digest('hex'));
    expect(headers['x-dcledger-signature-timestamped']).toBe(
      createHmac('sha256', secret)
        .update(`0f6f8a50-7d0b-4a57-9b1e-5b8c4d3a2e10.${NOW / 1000}.${body}`)
        .digest('hex'),
    );
    expect(headers['x-dcledger-event']).toBe('trade.created');
    expect(headers['x-dcledger-timestamp']).toBe(String(NOW / 1000));
  });

  it('verifies a genuine delivery from Node headers, a fetch Headers object and raw bytes', () => {
    const { raw, headers } = delivery();
    const expected = {
      ok: true,
      event: 'trade.created',
      deliveryId: '0f6f8a50-7d0b-4a57-9b1e-5b8c4d3a2e10',
      timestamp: NOW / 1000,
      payload: { event: 'trade.created', data: { id: 7, ticker: 'NVDA' } },
    };
    expect(verifyWebhook(raw, headers, secret, { now: () => NOW })).toEqual(expected);
    expect(verifyWebhook(Buffer.from(raw), new Headers(headers), secret, { now: () => NOW })).toEqual(
      expected,
    );
  });

  it('refuses another secret, a changed body, a swapped event header and a stale or future timestamp', () => {
    const { raw, headers } = delivery();
    expect(verifyWebhook(raw, headers, 'another-secret', { now: () => NOW }).ok).toBe(false);
    expect(verifyWebhook(raw.replace('NVDA', 'AAPL'), headers, secret, { now: () => NOW }).ok).toBe(false);
    expect(
      verifyWebhook(raw, { ...headers, 'x-dcledger-event': 'whale.filed' }, secret, { now: () => NOW }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('X-DCLedger-Event') });
    const late = verifyWebhook(raw, headers, secret, { now: () => NOW + 301_000 });
    expect(late).toMatchObject({ ok: false, reason: expect.stringContaining('window') });
    expect(verifyWebhook(raw, headers, secret, { now: () => NOW - 301_000 }).ok).toBe(false);
    expect(verifyWebhook(raw, headers, secret, { now: () => NOW + 299_000 }).ok).toBe(true);
  });

  it('refuses a replay with a fresh timestamp: the body signature alone would pass, the timestamped one does not', () => {
    const { raw, headers } = delivery();
    const replayed = { ...headers, 'x-dcledger-timestamp': String(NOW / 1000 + 3600) };
    const later = () => NOW + 3600_000;
    expect(verifyWebhook(raw, replayed, secret, { now: later })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('Timestamped'),
    });
    expect(verifyWebhook(raw, replayed, secret, { toleranceSeconds: null }).ok).toBe(true);
  });

  it('refuses missing and malformed signatures', () => {
    const { raw, headers } = delivery();
    const { 'x-dcledger-signature': _dropped, ...unsigned } = headers;
    expect(verifyWebhook(raw, unsigned, secret, { now: () => NOW }).ok).toBe(false);
    expect(
      verifyWebhook(raw, { ...headers, 'x-dcledger-signature': 'zz' }, secret, { now: () => NOW }).ok,
    ).toBe(false);
    expect(
      verifyWebhook(
        raw,
        { ...headers, 'x-dcledger-signature': headers['x-dcledger-signature']?.slice(0, 62) ?? '' },
        secret,
        {
          now: () => NOW,
        },
      ).ok,
    ).toBe(false);
    const { 'x-dcledger-timestamp': _noTime, ...untimed } = headers;
    expect(verifyWebhook(raw, untimed, secret, { now: () => NOW }).ok).toBe(false);
  });

  it('accepts any genuine body and secret, and refuses any single changed byte', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 0, maxLength: 200 }),
        fc.string({ minLength: 16, maxLength: 64 }),
        fc.nat(),
        (text, key, position) => {
          const raw = JSON.stringify({ event: 'trade.created', data: { text } });
          const headers = lowerCased(
            signedHeaders({
              event: 'trade.created',
              deliveryId: 'd',
              timestamp: NOW / 1000,
              rawBody: raw,
              secret: key,
            }),
          );
          expect(verifyWebhook(raw, headers, key, { now: () => NOW }).ok).toBe(true);
          const bytes = Buffer.from(raw);
          const index = position % bytes.length;
          bytes[index] = (bytes[index] ?? 0) ^ 0x01;
          expect(verifyWebhook(bytes, headers, key, { now: () => NOW }).ok).toBe(false);
        },
      ),
    );
  });
});
