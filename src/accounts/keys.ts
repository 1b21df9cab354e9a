// API keys: `dc_` + 32 random bytes (base64url), shown once, stored as SHA-256.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'dc_';
const KEY_BYTES = 32;

export interface NewKey {
  /** The only time the key exists in clear. */
  key: string;
  hash: string;
  prefix: string;
  last4: string;
}

export function generateKey(): NewKey {
  const key = `${KEY_PREFIX}${randomBytes(KEY_BYTES).toString('base64url')}`;
  return { key, hash: hashKey(key), prefix: key.slice(0, 8), last4: key.slice(-4) };
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares two hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Cheap shape check so that obviously wrong values never reach the database. */
export function looksLikeKey(value: string): boolean {
  return (
    value.startsWith(KEY_PREFIX) &&
    value.length >= 40 &&
    value.length <= 200 &&
    /^[A-Za-z0-9_-]+$/.test(value)
  );
}
