import { describe, expect, it } from 'vitest';
import { generateSecret, SecretBox, SecretUnavailableError } from './secrets.js';

const key = Buffer.alloc(32, 1);

describe('secrets at rest', () => {
  it('seals with AES-256-GCM: the stored value does not contain the secret, and opens back to it', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('my webhook secret 123');
    expect(sealed).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain('my webhook secret');
    expect(Buffer.from(sealed.split(':')[2] ?? '', 'base64url').toString('latin1')).not.toContain('secret');
    expect(box.open(sealed)).toBe('my webhook secret 123');
    // A fresh nonce per seal: the same secret never looks the same twice.
    expect(box.seal('my webhook secret 123')).not.toBe(sealed);
  });

  it('refuses a changed key, a missing key and a tampered value', () => {
    const sealed = new SecretBox(key).seal('abcdefghijklmnop');
    expect(() => new SecretBox(Buffer.alloc(32, 2)).open(sealed)).toThrow(
      /another DCLEDGER_WEBHOOK_SECRET_KEY/,
    );
    expect(() => new SecretBox(null).open(sealed)).toThrow(SecretUnavailableError);
    const bytes = Buffer.from(sealed.split(':')[2] ?? '', 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    const tampered = `v1:${sealed.split(':')[1]}:${bytes.toString('base64url')}`;
    expect(() => new SecretBox(key).open(tampered)).toThrow(/authentication/);
  });

  it('without a key stores the secret in clear (marked as such), still readable once a key is set', () => {
    const stored = new SecretBox(null).seal('clear secret value');
    expect(SecretBox.isClear(stored)).toBe(true);
    expect(new SecretBox(null).open(stored)).toBe('clear secret value');
    expect(new SecretBox(key).open(stored)).toBe('clear secret value');
  });

  it('generates 32 random bytes per secret', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateSecret()).not.toBe(secret);
  });
});
