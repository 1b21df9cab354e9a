// The documented rules of verify.ts one by one: header names, the Standard Webhooks key and
// signature, header parsing (Node and fetch shapes, repeated headers, padding, case), the
// timestamp format, custom tolerances and the body shape. Each assertion states a rule a
// receiver relies on (docs/webhooks and the module header comment).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  signBody,
  signedHeaders,
  signStandard,
  signTimestamped,
  standardKey,
  TEST_HEADER,
  TIMESTAMP_HEADER,
  TIMESTAMPED_SIGNATURE_HEADER,
  verifyWebhook,
} from './verify.js';

const secret = 'plain-secret-not-whsec';
const id = 'delivery-1';
const NOW_S = 1_780_000_000;
const now = () => NOW_S * 1000;
const body = JSON.stringify({ event: 'trade.created', data: { id: 1 } });

function nodeHeaders(raw: string = body, timestamp = NOW_S, event = 'trade.created') {
  const signed = signedHeaders({ event, deliveryId: id, timestamp, rawBody: raw, secret });
  return Object.fromEntries(Object.entries(signed).map(([name, value]) => [name.toLowerCase(), value]));
}

describe('webhook header names', () => {
  it('are the names the interface documents', () => {
    expect([
      SIGNATURE_HEADER,
      TIMESTAMPED_SIGNATURE_HEADER,
      EVENT_HEADER,
      DELIVERY_HEADER,
      TIMESTAMP_HEADER,
      STANDARD_ID_HEADER,
      STANDARD_TIMESTAMP_HEADER,
      STANDARD_SIGNATURE_HEADER,
      TEST_HEADER,
    ]).toEqual([
      'X-DCLedger-Signature',
      'X-DCLedger-Signature-Timestamped',
      'X-DCLedger-Event',
      'X-DCLedger-Delivery',
      'X-DCLedger-Timestamp',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'X-DCLedger-Test',
    ]);
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });

  it('a delivery carries exactly these headers', () => {
    const headers = signedHeaders({ event: 'e', deliveryId: id, timestamp: NOW_S, rawBody: body, secret });
    expect(headers).toEqual({
      'X-DCLedger-Event': 'e',
      'X-DCLedger-Delivery': id,
      'X-DCLedger-Timestamp': String(NOW_S),
      'X-DCLedger-Signature': signBody(body, secret),
      'X-DCLedger-Signature-Timestamped': signTimestamped(id, NOW_S, body, secret),
      'webhook-id': id,
      'webhook-timestamp': String(NOW_S),
      'webhook-signature': signStandard(id, NOW_S, body, secret),
    });
  });
});

describe('Standard Webhooks signature', () => {
  it('keys a whsec_ secret by its base64 payload and any other secret by its UTF-8 bytes', () => {
    expect(standardKey('whsec_aGVsbG8=')).toEqual(Buffer.from('hello'));
    expect(standardKey('plain')).toEqual(Buffer.from('plain', 'utf8'));
    expect(standardKey('xwhsec_aGVsbG8=')).toEqual(Buffer.from('xwhsec_aGVsbG8=', 'utf8'));
  });

  it('is "v1," and the base64 HMAC-SHA256 of "<id>.<timestamp>.<body>"', () => {
    const expected = createHmac('sha256', Buffer.from('hello'))
      .update(`${id}.${NOW_S}.${body}`)
      .digest('base64');
    expect(signStandard(id, NOW_S, body, 'whsec_aGVsbG8=')).toBe(`v1,${expected}`);
    expect(signStandard(id, NOW_S, Buffer.from(body), 'whsec_aGVsbG8=')).toBe(`v1,${expected}`);
  });

  it('signs bytes and strings of the same text alike', () => {
    expect(signBody(Buffer.from(body), secret)).toBe(signBody(body, secret));
    expect(signTimestamped(id, NOW_S, new Uint8Array(Buffer.from(body)), secret)).toBe(
      signTimestamped(id, NOW_S, body, secret),
    );
  });
});

describe('verifyWebhook header parsing', () => {
  it('takes the first value of a repeated Node header', () => {
    const headers = nodeHeaders();
    const repeated = { ...headers, 'x-dcledger-signature': [headers['x-dcledger-signature'] ?? '', 'ff'] };
    expect(verifyWebhook(body, repeated, secret, { now }).ok).toBe(true);
    const wrongFirst = { ...headers, 'x-dcledger-signature': ['ff', headers['x-dcledger-signature'] ?? ''] };
    expect(verifyWebhook(body, wrongFirst, secret, { now }).ok).toBe(false);
  });

  it('accepts hex signatures in upper case and with surrounding spaces', () => {
    const headers = nodeHeaders();
    const signature = headers['x-dcledger-signature'] ?? '';
    const timestamped = headers['x-dcledger-signature-timestamped'] ?? '';
    const padded = {
      ...headers,
      'x-dcledger-signature': ` ${signature.toUpperCase()} `,
      'x-dcledger-signature-timestamped': `${timestamped} `,
    };
    expect(verifyWebhook(body, padded, secret, { now }).ok).toBe(true);
  });

  it('refuses a signature with a non-hex character anywhere, even when its hex prefix matches', () => {
    const headers = nodeHeaders();
    const signature = headers['x-dcledger-signature'] ?? '';
    for (const bad of [
      `${signature}g`,
      `g${signature}`,
      `${signature.slice(0, 32)}-${signature.slice(32)}`,
      '',
    ])
      expect(verifyWebhook(body, { ...headers, 'x-dcledger-signature': bad }, secret, { now })).toEqual({
        ok: false,
        reason: 'X-DCLedger-Signature does not match the body',
      });
  });

  it('refuses a signature one byte longer than the genuine one', () => {
    const headers = nodeHeaders();
    const longer = `${headers['x-dcledger-signature'] ?? ''}00`;
    expect(verifyWebhook(body, { ...headers, 'x-dcledger-signature': longer }, secret, { now }).ok).toBe(
      false,
    );
  });

  it('reads the timestamp only as 1 to 12 decimal digits', () => {
    const headers = nodeHeaders();
    for (const text of [`${NOW_S}.0`, `+${NOW_S}`, ` ${NOW_S}`, `${NOW_S}x`, '', '1234567890123'])
      expect(verifyWebhook(body, { ...headers, 'x-dcledger-timestamp': text }, secret, { now })).toEqual({
        ok: false,
        reason: 'X-DCLedger-Delivery and X-DCLedger-Timestamp are required',
      });
  });

  it('requires the delivery id when a tolerance applies', () => {
    const { 'x-dcledger-delivery': _id, ...rest } = nodeHeaders();
    expect(verifyWebhook(body, rest, secret, { now })).toEqual({
      ok: false,
      reason: 'X-DCLedger-Delivery and X-DCLedger-Timestamp are required',
    });
  });
});

describe('verifyWebhook tolerance', () => {
  it('applies a custom tolerance inclusively and names it in the reason', () => {
    const headers = nodeHeaders();
    const at = (offset: number) => () => (NOW_S + offset) * 1000;
    expect(verifyWebhook(body, headers, secret, { toleranceSeconds: 10, now: at(10) }).ok).toBe(true);
    expect(verifyWebhook(body, headers, secret, { toleranceSeconds: 10, now: at(-10) }).ok).toBe(true);
    expect(verifyWebhook(body, headers, secret, { toleranceSeconds: 10, now: at(11) })).toEqual({
      ok: false,
      reason: 'X-DCLedger-Timestamp is outside the 10 s window',
    });
    expect(verifyWebhook(body, headers, secret, { toleranceSeconds: 10, now: at(-11) }).ok).toBe(false);
    expect(verifyWebhook(body, headers, secret, { toleranceSeconds: 0, now: at(0) }).ok).toBe(true);
    // Milliseconds below the next second still count as the same second.
    expect(
      verifyWebhook(body, headers, secret, { toleranceSeconds: 0, now: () => NOW_S * 1000 + 999 }).ok,
    ).toBe(true);
  });

  it('uses the clock when no now() is given', () => {
    const fresh = Math.floor(Date.now() / 1000);
    expect(verifyWebhook(body, nodeHeaders(body, fresh), secret).ok).toBe(true);
    expect(verifyWebhook(body, nodeHeaders(body, fresh - 3600), secret).ok).toBe(false);
  });

  it('with toleranceSeconds null checks the body signature only and reports what headers there are', () => {
    const { 'x-dcledger-delivery': _id, 'x-dcledger-timestamp': _t, ...bare } = nodeHeaders(body, 5);
    expect(verifyWebhook(body, bare, secret, { toleranceSeconds: null })).toEqual({
      ok: true,
      event: 'trade.created',
      deliveryId: null,
      timestamp: null,
      payload: { event: 'trade.created', data: { id: 1 } },
    });
  });

  it('refuses a timestamped signature made for another delivery id', () => {
    const headers = nodeHeaders();
    expect(verifyWebhook(body, { ...headers, 'x-dcledger-delivery': 'delivery-2' }, secret, { now })).toEqual(
      {
        ok: false,
        reason: 'X-DCLedger-Signature-Timestamped does not match',
      },
    );
  });
});

describe('verifyWebhook body shape', () => {
  const check = (raw: string) => verifyWebhook(raw, nodeHeaders(raw), secret, { now });

  it('refuses a body that is not JSON', () => {
    expect(check('{not json')).toEqual({ ok: false, reason: 'the body is not JSON' });
  });

  it.each(['null', '"text"', '42', '{"event":"trade.created"}', '{"data":{}}'])(
    'refuses %s, which is not { event, data }',
    (raw) => expect(check(raw)).toEqual({ ok: false, reason: 'the body is not { event, data }' }),
  );

  it('accepts data that is null and passes it through', () => {
    const raw = JSON.stringify({ event: 'trade.created', data: null });
    expect(check(raw)).toMatchObject({ ok: true, payload: { event: 'trade.created', data: null } });
  });

  it('refuses a body whose event is not the one the event header names', () => {
    const raw = JSON.stringify({ event: 'trade.created', data: {} });
    const headers = nodeHeaders(raw, NOW_S, 'trade.updated');
    expect(verifyWebhook(raw, headers, secret, { now })).toEqual({
      ok: false,
      reason: "X-DCLedger-Event does not match the body's event",
    });
    const { 'x-dcledger-event': _e, ...noEvent } = nodeHeaders(raw);
    expect(verifyWebhook(raw, noEvent, secret, { now }).ok).toBe(false);
  });
});
