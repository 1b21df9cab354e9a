// Idempotency-Key policy for POST requests: what a valid key is, how a request is fingerprinted,
// and how a stored answer is sealed. The stored answer (a new API key or webhook secret can be in
// it) is encrypted with a key derived from the Idempotency-Key, which only its client holds: the
// database keeps a SHA-256 of the key, never the key, so a copy of it cannot read the answers.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { ApiError } from '../errors.js';

/** How long a key is remembered: a retry within this window gets the first answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on a replayed answer. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** Answer headers worth replaying; credits, rate-limit and request-id headers describe the new request. */
export const REPLAYED_HEADERS: readonly string[] = ['content-type', 'location', 'cache-control', 'link'];

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The key of a request, or a 400 when it is malformed. */
export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value[0] : value;
  if (Array.isArray(value) && value.length > 1) {
    throw new ApiError('bad_request', 'Idempotency-Key must be sent once');
  }
  if (key === undefined || !KEY_PATTERN.test(key)) {
    throw new ApiError(
      'bad_request',
      'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces (a UUID v4 is a good key)',
    );
  }
  return key;
}

export function idempotencyKeyHash(scope: string, key: string): string {
  return createHash('sha256').update(scope).update('\n').update(key).digest('hex');
}

/** The request's fingerprint: method, path with query, and the body with object keys in a fixed order. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n`)
    .update(stableJson(body) ?? '')
    .digest('hex');
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are one request. */
export function stableJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => stableJson(item) ?? 'null').join(',')}]`;
  const record = value as Record<string, unknown>;
  const fields = Object.keys(record)
    .sort()
    .flatMap((name) => {
      const text = stableJson(record[name]);
      return text === undefined ? [] : [`${JSON.stringify(name)}:${text}`];
    });
  return `{${fields.join(',')}}`;
}

function answerKey(scope: string, key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, scope, 'dcledger idempotent answer', 32));
}

/** AES-256-GCM under a key derived from the Idempotency-Key: `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function sealAnswer(scope: string, key: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', answerKey(scope, key), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function openAnswer(scope: string, key: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) {
    throw new Error('stored idempotent answer has an unknown format');
  }
  const decipher = createDecipheriv('aes-256-gcm', answerKey(scope, key), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
