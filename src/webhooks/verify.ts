// Webhook signing and verification. This module depends on node:crypto only, so receivers can
// import it (or copy it) to check deliveries exactly the way the service signs them.
//
//   X-DCLedger-Signature              hex HMAC-SHA256(secret, raw body)
//   X-DCLedger-Signature-Timestamped  hex HMAC-SHA256(secret, "<delivery id>.<timestamp>.<raw body>")
//   X-DCLedger-Event                  the event type, also in the body
//   X-DCLedger-Delivery               the delivery id: the same on every retry of one delivery
//   X-DCLedger-Timestamp              Unix seconds when this attempt was signed
//   webhook-id, webhook-timestamp,    the Standard Webhooks headers (standardwebhooks.com):
//   webhook-signature                 "v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<raw body>")>",
//                                     key = the base64 bytes of a `whsec_` secret (else its UTF-8)
//
// The first signature is the one the interface promises; it does not cover the timestamp, so on
// its own a captured request could be replayed with a fresh timestamp. The second one binds the
// delivery id and the timestamp to the body, which is what makes a replay window meaningful.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-DCLedger-Signature';
export const TIMESTAMPED_SIGNATURE_HEADER = 'X-DCLedger-Signature-Timestamped';
export const EVENT_HEADER = 'X-DCLedger-Event';
export const DELIVERY_HEADER = 'X-DCLedger-Delivery';
export const TIMESTAMP_HEADER = 'X-DCLedger-Timestamp';
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';
/** Present (value "true") on deliveries sent by POST /alerts/subscriptions/{id}/test. */
export const TEST_HEADER = 'X-DCLedger-Test';

/** Replay window verifyWebhook applies unless told otherwise. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

type Body = string | Uint8Array;

function bytesOf(body: Body): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
}

/** Hex HMAC-SHA256 of the exact body bytes. */
export function signBody(rawBody: Body, secret: string): string {
  return createHmac('sha256', secret).update(bytesOf(rawBody)).digest('hex');
}

/** Hex HMAC-SHA256 of "<delivery id>.<timestamp>.<raw body>". */
export function signTimestamped(
  deliveryId: string,
  timestamp: number,
  rawBody: Body,
  secret: string,
): string {
  return createHmac('sha256', secret)
    .update(`${deliveryId}.${timestamp}.`, 'utf8')
    .update(bytesOf(rawBody))
    .digest('hex');
}

/** The Standard Webhooks HMAC key: a `whsec_` secret's base64 payload, any other secret's UTF-8 bytes. */
export function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** `v1,<base64 HMAC-SHA256>` of "<id>.<timestamp>.<raw body>", as the Standard Webhooks spec signs. */
export function signStandard(id: string, timestamp: number, rawBody: Body, secret: string): string {
  const digest = createHmac('sha256', standardKey(secret))
    .update(`${id}.${timestamp}.`, 'utf8')
    .update(bytesOf(rawBody))
    .digest('base64');
  return `v1,${digest}`;
}

/** The headers a delivery carries. */
export function signedHeaders(input: {
  event: string;
  deliveryId: string;
  timestamp: number;
  rawBody: Body;
  secret: string;
}): Record<string, string> {
  return {
    [EVENT_HEADER]: input.event,
    [DELIVERY_HEADER]: input.deliveryId,
    [TIMESTAMP_HEADER]: String(input.timestamp),
    [SIGNATURE_HEADER]: signBody(input.rawBody, input.secret),
    [TIMESTAMPED_SIGNATURE_HEADER]: signTimestamped(
      input.deliveryId,
      input.timestamp,
      input.rawBody,
      input.secret,
    ),
    [STANDARD_ID_HEADER]: input.deliveryId,
    [STANDARD_TIMESTAMP_HEADER]: String(input.timestamp),
    [STANDARD_SIGNATURE_HEADER]: signStandard(input.deliveryId, input.timestamp, input.rawBody, input.secret),
  };
}

/** Node's request.headers (lower-case keys) or a fetch Headers object. */
export type HeaderSource =
  | Record<string, string | string[] | undefined>
  | { get(name: string): string | null };

export interface VerifyOptions {
  /**
   * Refuse deliveries signed more than this many seconds from now (default 300). Requires the
   * timestamped signature. `null` checks only X-DCLedger-Signature (no replay protection).
   */
  toleranceSeconds?: number | null;
  /** Current time in milliseconds (default Date.now). */
  now?: () => number;
}

export type VerifyResult =
  | {
      ok: true;
      event: string;
      /** Deduplicate on this: retries of one delivery carry the same id. */
      deliveryId: string | null;
      timestamp: number | null;
      payload: { event: string; data: unknown };
    }
  | { ok: false; reason: string };

function header(headers: HeaderSource, name: string): string | null {
  if (typeof headers.get === 'function') return (headers.get as (key: string) => string | null)(name);
  const value = (headers as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** Constant-time comparison of two hex signatures. */
function sameHex(expected: string, received: string | null): boolean {
  if (received === null || !/^[0-9a-f]+$/i.test(received.trim())) return false;
  const left = Buffer.from(expected, 'hex');
  const right = Buffer.from(received.trim(), 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Verifies a delivery against the raw body bytes (before any JSON parsing) and the subscription's
 * secret: the body signature, then (unless `toleranceSeconds` is null) the timestamped signature
 * and the replay window, then that the body is `{ event, data }` for the event the header names.
 */
export function verifyWebhook(
  rawBody: Body,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  if (!sameHex(signBody(rawBody, secret), header(headers, SIGNATURE_HEADER)))
    return { ok: false, reason: `${SIGNATURE_HEADER} does not match the body` };

  const tolerance =
    options.toleranceSeconds === undefined ? DEFAULT_TOLERANCE_SECONDS : options.toleranceSeconds;
  const deliveryId = header(headers, DELIVERY_HEADER);
  const timestampText = header(headers, TIMESTAMP_HEADER);
  const timestamp = timestampText !== null && /^\d{1,12}$/.test(timestampText) ? Number(timestampText) : null;
  if (tolerance !== null) {
    if (deliveryId === null || timestamp === null)
      return { ok: false, reason: `${DELIVERY_HEADER} and ${TIMESTAMP_HEADER} are required` };
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - timestamp) > tolerance)
      return { ok: false, reason: `${TIMESTAMP_HEADER} is outside the ${tolerance} s window` };
    const expected = signTimestamped(deliveryId, timestamp, rawBody, secret);
    if (!sameHex(expected, header(headers, TIMESTAMPED_SIGNATURE_HEADER)))
      return { ok: false, reason: `${TIMESTAMPED_SIGNATURE_HEADER} does not match` };
  }

  let payload: unknown;
  try {
    payload = JSON.parse(bytesOf(rawBody).toString('utf8'));
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  if (typeof payload !== 'object' || payload === null || !('event' in payload) || !('data' in payload))
    return { ok: false, reason: 'the body is not { event, data }' };
  const event = String(payload.event);
  if (event !== header(headers, EVENT_HEADER))
    return { ok: false, reason: `${EVENT_HEADER} does not match the body's event` };
  return { ok: true, event, deliveryId, timestamp, payload: { event, data: payload.data } };
}
