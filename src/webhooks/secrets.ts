// Subscription secrets at rest. They cannot be hashed like API keys: every delivery needs the secret
// itself to compute its HMAC. With DCLEDGER_WEBHOOK_SECRET_KEY set they are sealed with AES-256-GCM
// (random 96-bit nonce per secret, authenticated), so a copy of the database alone does not reveal
// them. Without it, `serve` and `worker` generate and keep a key file (secret-key.ts); a SecretBox
// without a key (an app embedded without a runtime) stores them in clear and the worker says so.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const SEALED = 'v1';
const CLEAR = 'plain';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
// Binds the ciphertext to its purpose: a value sealed for something else does not open here.
const ASSOCIATED_DATA = Buffer.from('dcledger webhook secret v1', 'utf8');

export class SecretUnavailableError extends Error {}

/** Opened secrets kept in memory, so that a burst of deliveries decrypts each secret once. */
const OPENED_CACHE_SIZE = 1000;

export class SecretBox {
  private readonly keyId: string | null;
  private readonly opened = new Map<string, string>();

  constructor(private readonly key: Buffer | null) {
    if (key && key.length !== 32) throw new Error('the webhook secret key must be 32 bytes');
    // A short fingerprint of the key, stored with each sealed secret, tells "wrong key" apart from
    // "corrupted value" when DCLEDGER_WEBHOOK_SECRET_KEY changes.
    this.keyId = key ? createHash('sha256').update(key).digest('hex').slice(0, 8) : null;
  }

  /** The key's short fingerprint stored with each secret it seals (null: no key). */
  get fingerprint(): string | null {
    return this.keyId;
  }

  get encrypts(): boolean {
    return this.key !== null;
  }

  seal(secret: string): string {
    if (!this.key || !this.keyId) return `${CLEAR}:${Buffer.from(secret, 'utf8').toString('base64url')}`;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(ASSOCIATED_DATA);
    const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([nonce, cipher.getAuthTag(), encrypted]).toString('base64url');
    return `${SEALED}:${this.keyId}:${sealed}`;
  }

  open(stored: string): string {
    const cached = this.opened.get(stored);
    if (cached !== undefined) return cached;
    const secret = this.decrypt(stored);
    if (this.opened.size >= OPENED_CACHE_SIZE) this.opened.clear();
    this.opened.set(stored, secret);
    return secret;
  }

  private decrypt(stored: string): string {
    const [scheme, ...parts] = stored.split(':');
    if (scheme === CLEAR && parts.length === 1)
      return Buffer.from(parts[0] ?? '', 'base64url').toString('utf8');
    if (scheme !== SEALED || parts.length !== 2)
      throw new SecretUnavailableError('unrecognized stored secret');
    const [keyId, sealed = ''] = parts;
    if (!this.key) {
      throw new SecretUnavailableError(
        'the secret is encrypted and DCLEDGER_WEBHOOK_SECRET_KEY is not set; set the key it was sealed with',
      );
    }
    if (keyId !== this.keyId) {
      throw new SecretUnavailableError(
        `the secret was sealed with another DCLEDGER_WEBHOOK_SECRET_KEY (fingerprint ${keyId})`,
      );
    }
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(ASSOCIATED_DATA);
    decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretUnavailableError('the stored secret failed authentication (corrupted or tampered)');
    }
  }

  /** Whether a stored value is in clear (to re-seal it once a key is configured). */
  static isClear(stored: string): boolean {
    return stored.startsWith(`${CLEAR}:`);
  }
}

/**
 * A fresh signing secret for callers who do not choose one: 32 random bytes in the Standard
 * Webhooks form `whsec_<base64>` (standard base64: the official libraries reject base64url).
 */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
