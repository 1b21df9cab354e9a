// Webhook delivery settings: the SSRF exemptions, the secret key, timeouts and the worker's limits.
import { isIP } from 'node:net';
import { type Env, readInteger, readSwitch, reject } from './read.js';

/** An address range: `10.0.0.0/8`, `127.0.0.1/32`, `fd00::/8`. */
export interface Cidr {
  address: string;
  prefix: number;
  family: 4 | 6;
}

export interface WebhookSettings {
  /**
   * DCLEDGER_WEBHOOK_ALLOW_CIDRS: ranges exempt from the SSRF guard (comma-separated CIDRs, empty
   * by default). Only for operators whose receivers live on a private network.
   */
  allowCidrs: Cidr[];
  /**
   * DCLEDGER_WEBHOOK_SECRET_KEY: 32 bytes (64 hex characters or base64) that encrypt subscription
   * secrets at rest with AES-256-GCM. Unset: `serve` and `worker` use the key file below.
   */
  secretKey: Buffer | null;
  /**
   * DCLEDGER_WEBHOOK_SECRET_KEY_FILE: where the key is kept when DCLEDGER_WEBHOOK_SECRET_KEY is
   * unset; created (mode 0600) on first start. Unset: webhook-secret.key in the data directory
   * (src/webhooks/secret-key.ts).
   */
  secretKeyFile: string | undefined;
  /** DCLEDGER_WEBHOOK_TIMEOUT_MS: how long one delivery may take, connect to last byte (default 15000). */
  timeoutMs: number;
  /** DCLEDGER_WEBHOOK_CONCURRENCY: deliveries in flight at once per worker (default 32). */
  concurrency: number;
  /**
   * DCLEDGER_WEBHOOK_LEASE_MS: how long a worker owns a claimed delivery before another worker may
   * take it over (default: the timeout plus 60 s, so a live worker never loses its lease).
   */
  leaseMs: number;
  /** DCLEDGER_WEBHOOK_POLL_MS: how often an idle worker looks for new events (default 1000). */
  pollMs: number;
  /** DCLEDGER_WEBHOOK_WORKER: `off` keeps `serve` from running the delivery worker (default on). */
  workerInServe: boolean;
  /**
   * DCLEDGER_WEBHOOK_PER_SUBSCRIPTION: deliveries of one subscription in flight at once per worker
   * (default a quarter of the concurrency). DCLEDGER_WEBHOOK_PER_HOST: the same for one receiver
   * host and port (default half of it). They keep a slow receiver from taking everyone's slots.
   */
  perSubscription: number;
  perHost: number;
}

export function readWebhookSettings(env: Env): WebhookSettings {
  const timeoutMs = readInteger(env, 'DCLEDGER_WEBHOOK_TIMEOUT_MS', 15_000, 1);
  const leaseMs = readInteger(env, 'DCLEDGER_WEBHOOK_LEASE_MS', timeoutMs + 60_000, 1);
  const concurrency = readInteger(env, 'DCLEDGER_WEBHOOK_CONCURRENCY', 32, 1);
  if (leaseMs <= timeoutMs) {
    reject(
      'DCLEDGER_WEBHOOK_LEASE_MS must be longer than DCLEDGER_WEBHOOK_TIMEOUT_MS, or two workers could send the same delivery at once',
    );
  }
  return {
    allowCidrs: parseCidrList(env.DCLEDGER_WEBHOOK_ALLOW_CIDRS ?? ''),
    secretKey: readSecretKey(env.DCLEDGER_WEBHOOK_SECRET_KEY),
    secretKeyFile: env.DCLEDGER_WEBHOOK_SECRET_KEY_FILE?.trim() || undefined,
    timeoutMs,
    concurrency,
    leaseMs,
    pollMs: readInteger(env, 'DCLEDGER_WEBHOOK_POLL_MS', 1000, 1),
    workerInServe: readSwitch('DCLEDGER_WEBHOOK_WORKER', env.DCLEDGER_WEBHOOK_WORKER, true),
    ...readFairnessCaps(env, concurrency),
  };
}

function readFairnessCaps(env: Env, concurrency: number): { perSubscription: number; perHost: number } {
  const perSubscription = readInteger(
    env,
    'DCLEDGER_WEBHOOK_PER_SUBSCRIPTION',
    Math.max(1, Math.floor(concurrency / 4)),
    1,
  );
  const perHost = readInteger(
    env,
    'DCLEDGER_WEBHOOK_PER_HOST',
    Math.max(perSubscription, Math.floor(concurrency / 2)),
    1,
  );
  return { perSubscription, perHost };
}

/** "10.0.0.0/8, 127.0.0.1/32"; a bare address means that one address. */
export function parseCidrList(raw: string): Cidr[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(parseCidr)
    .filter((cidr): cidr is Cidr => cidr !== undefined);
}

function parseCidr(text: string): Cidr | undefined {
  const [address = '', prefixText, ...rest] = text.split('/');
  const family = isIP(address);
  if ((family !== 4 && family !== 6) || rest.length > 0) {
    reject(`DCLEDGER_WEBHOOK_ALLOW_CIDRS: "${text}" is not an IPv4 or IPv6 CIDR`);
    return undefined;
  }
  const bits = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!/^\d+$/.test(prefixText ?? String(bits)) || prefix > bits) {
    reject(`DCLEDGER_WEBHOOK_ALLOW_CIDRS: "${text}" needs a prefix length from 0 to ${bits}`);
    return undefined;
  }
  return { address, prefix, family };
}

/** A webhook secret key as written in the setting or its key file: 64 hex characters or base64. */
export function decodeSecretKey(text: string): Buffer | null {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : null;
}

function readSecretKey(raw: string | undefined): Buffer | null {
  const text = raw?.trim();
  if (!text) return null;
  const key = decodeSecretKey(text);
  if (!key) {
    reject(
      'DCLEDGER_WEBHOOK_SECRET_KEY must be 32 bytes as 64 hex characters or base64 (e.g. `openssl rand -base64 32`)',
    );
    return null;
  }
  return key;
}
