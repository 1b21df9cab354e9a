// Verifies a webhook delivery the way the service signs it:
//   X-DCLedger-Signature              hex HMAC-SHA256(secret, raw body)
//   X-DCLedger-Signature-Timestamped  hex HMAC-SHA256(secret, "<delivery id>.<timestamp>.<raw body>")
//   X-DCLedger-Delivery, X-DCLedger-Timestamp (Unix seconds), X-DCLedger-Event
// Check the raw bytes before parsing JSON; deduplicate on the delivery id (retries repeat it).
import { createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookHeaders =
  | Record<string, string | string[] | undefined>
  | { get(name: string): string | null };

export interface VerifyWebhookOptions {
  /** Refuse deliveries signed more than this many seconds away from now (default 300; null: no replay check). */
  toleranceSeconds?: number | null;
  now?: () => number;
}

export type WebhookVerification =
  | { ok: true; event: string; deliveryId: string | null; timestamp: number | null; data: unknown }
  | { ok: false; reason: string };

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof headers.get === 'function') return (headers.get as (key: string) => string | null)(name);
  const value = (headers as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function hmac(secret: string, ...parts: (string | Uint8Array)[]): Buffer {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

function matches(expected: Buffer, received: string | null): boolean {
  if (received === null || !/^[0-9a-f]+$/i.test(received.trim())) return false;
  const given = Buffer.from(received.trim(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookVerification {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  if (!matches(hmac(secret, body), header(headers, 'X-DCLedger-Signature'))) {
    return { ok: false, reason: 'X-DCLedger-Signature does not match the body' };
  }
  const tolerance = options.toleranceSeconds === undefined ? 300 : options.toleranceSeconds;
  const deliveryId = header(headers, 'X-DCLedger-Delivery');
  const stamp = header(headers, 'X-DCLedger-Timestamp');
  const timestamp = stamp !== null && /^\d{1,12}$/.test(stamp) ? Number(stamp) : null;
  if (tolerance !== null) {
    if (deliveryId === null || timestamp === null) {
      return { ok: false, reason: 'X-DCLedger-Delivery and X-DCLedger-Timestamp are required' };
    }
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - timestamp) > tolerance) {
      return { ok: false, reason: `X-DCLedger-Timestamp is outside the ${tolerance} s window` };
    }
    const expected = hmac(secret, `${deliveryId}.${timestamp}.`, body);
    if (!matches(expected, header(headers, 'X-DCLedger-Signature-Timestamped'))) {
      return { ok: false, reason: 'X-DCLedger-Signature-Timestamped does not match' };
    }
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  if (typeof payload !== 'object' || payload === null || !('event' in payload) || !('data' in payload)) {
    return { ok: false, reason: 'the body is not { event, data }' };
  }
  const event = String(payload.event);
  if (event !== header(headers, 'X-DCLedger-Event')) {
    return { ok: false, reason: "X-DCLedger-Event does not match the body's event" };
  }
  return { ok: true, event, deliveryId, timestamp, data: payload.data };
}
