// The machine-readable integration guide: how deliveries look, how to verify them, when they are
// retried. Built from the constants the worker and the signer use, so it cannot drift from them.

import { DELIVERY_HEADERS } from '../../../webhooks/delivery-headers.js';
import {
  DISABLE_AFTER_FAILING_MS,
  JITTER,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  RETRY_SCHEDULE_MS,
} from '../../../webhooks/retry.js';
import { MAX_SUBSCRIPTIONS_PER_KEY } from '../../../webhooks/subscriptions.js';
import {
  DEFAULT_TOLERANCE_SECONDS,
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  TIMESTAMP_HEADER,
  TIMESTAMPED_SIGNATURE_HEADER,
} from '../../../webhooks/verify.js';

/**
 * Verifies the Standard Webhooks signature with node:crypto alone (what the standardwebhooks
 * libraries do): its key is the base64 payload of a whsec_ secret, not the secret string.
 */
export const STANDARD_NODE_EXAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body as a Buffer, before any JSON parsing; headers: Node's request.headers.
export function verifyStandard(rawBody, headers, secret, toleranceSeconds = ${DEFAULT_TOLERANCE_SECONDS}) {
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  const id = headers['${STANDARD_ID_HEADER}'];
  const timestamp = Number(headers['${STANDARD_TIMESTAMP_HEADER}']);
  if (!id || !Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', key).update(\`\${id}.\${timestamp}.\`).update(rawBody).digest('base64'));
  return String(headers['${STANDARD_SIGNATURE_HEADER}'] ?? '')
    .split(' ')
    .some((entry) => {
      const given = Buffer.from(entry.replace(/^v1,/, ''));
      return entry.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
`;

/** Verifies with node:crypto alone: a receiver can paste it as is. Tested against real deliveries. */
export const NODE_EXAMPLE = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body as a Buffer, before any JSON parsing.
// headers: Node's request.headers (lower-case names).
export function verifyDcledger(rawBody, headers, secret, toleranceSeconds = ${DEFAULT_TOLERANCE_SECONDS}) {
  const hmac = (data) => createHmac('sha256', secret).update(data).digest();
  const same = (expected, received) => {
    const got = Buffer.from(String(received ?? ''), 'hex');
    return got.length === expected.length && timingSafeEqual(got, expected);
  };
  if (!same(hmac(rawBody), headers['${SIGNATURE_HEADER.toLowerCase()}'])) return false;
  const delivery = headers['${DELIVERY_HEADER.toLowerCase()}'];
  const timestamp = Number(headers['${TIMESTAMP_HEADER.toLowerCase()}']);
  if (!delivery || !Number.isInteger(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const signed = Buffer.concat([Buffer.from(\`\${delivery}.\${timestamp}.\`), rawBody]);
  return same(hmac(signed), headers['${TIMESTAMPED_SIGNATURE_HEADER.toLowerCase()}']);
}
`;

/** The same in Python's standard library. Tested against real deliveries when python3 is present. */
export const PYTHON_EXAMPLE = `import hashlib
import hmac
import time


def verify_dcledger(raw_body: bytes, headers: dict, secret: str, tolerance: int = ${DEFAULT_TOLERANCE_SECONDS}) -> bool:
    """raw_body: the exact request bytes; headers: a case-insensitive mapping (e.g. request.headers)."""
    def sign(data: bytes) -> str:
        return hmac.new(secret.encode(), data, hashlib.sha256).hexdigest()

    if not hmac.compare_digest(sign(raw_body), headers.get("${SIGNATURE_HEADER}", "")):
        return False
    delivery = headers.get("${DELIVERY_HEADER}", "")
    timestamp = headers.get("${TIMESTAMP_HEADER}", "")
    if not delivery or not timestamp.isdigit() or abs(time.time() - int(timestamp)) > tolerance:
        return False
    signed = f"{delivery}.{timestamp}.".encode() + raw_body
    return hmac.compare_digest(sign(signed), headers.get("${TIMESTAMPED_SIGNATURE_HEADER}", ""))
`;

export const TYPESCRIPT_EXAMPLE = `// With the helper this service ships (src/webhooks/verify.ts; depends on node:crypto only).
import { createServer } from 'node:http';
import { verifyWebhook } from './verify.js';

createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const result = verifyWebhook(Buffer.concat(chunks), request.headers, process.env.DCLEDGER_WEBHOOK_SECRET ?? '');
    if (!result.ok) {
      response.writeHead(401).end(result.reason);
      return;
    }
    // Answer fast; deduplicate on result.deliveryId (retries reuse it), then work asynchronously.
    response.writeHead(204).end();
  });
}).listen(3000);
`;

export const SHELL_EXAMPLE = `# body.json holds the exact bytes received; compare with the X-DCLedger-Signature header.
openssl dgst -sha256 -hmac "$DCLEDGER_WEBHOOK_SECRET" -hex < body.json | sed 's/^.*= //'
`;

const seconds = (ms: number) => Math.round(ms / 1000);

export function webhookGuide(timeoutMs: number) {
  return {
    version: 1,
    delivery: {
      method: 'POST',
      content_type: 'application/json',
      body: '{ "event": "<event type>", "data": { ...the REST resource } }',
      timeout_seconds: timeoutMs / 1000,
      success: 'any 2xx status within the timeout; redirects are not followed (a 3xx is a failure)',
      semantics:
        'at least once: a delivery can arrive more than once, always with the same delivery id; no ordering between deliveries',
      deduplicate_on: `${DELIVERY_HEADER} (or event + data.id)`,
      events_after_subscribing:
        'a subscription receives events stored after it was created; a key that is revoked or an account below Pro receives nothing while it is so',
    },
    headers: [
      ...DELIVERY_HEADERS.map((header) => ({ name: header.name, value: header.description })),
      { name: 'Content-Type', value: 'application/json' },
      { name: 'User-Agent', value: 'dcledger-webhooks/1' },
    ],
    signature: {
      algorithm: 'HMAC-SHA256',
      encoding: 'hex (lower case)',
      key: `webhook_secret, as UTF-8 bytes (the whole string, whsec_ prefix included), for both ${SIGNATURE_HEADER} headers`,
      standard_webhooks: {
        header: STANDARD_SIGNATURE_HEADER,
        format: 'v1,<base64 HMAC-SHA256>',
        signed_content: `<${STANDARD_ID_HEADER}> + "." + <${STANDARD_TIMESTAMP_HEADER}> + "." + raw body`,
        key: 'the bytes of webhook_secret after its whsec_ prefix, base64-decoded (a secret without the prefix: its UTF-8 bytes); this is what the standardwebhooks libraries expect, so they verify it unchanged',
      },
      body_signature: { header: SIGNATURE_HEADER, signed_content: 'the raw body bytes exactly as received' },
      timestamped_signature: {
        header: TIMESTAMPED_SIGNATURE_HEADER,
        signed_content: `<${DELIVERY_HEADER}> + "." + <${TIMESTAMP_HEADER}> + "." + raw body`,
        why: `${SIGNATURE_HEADER} alone does not cover the timestamp; this one does, so a receiver can refuse replays`,
      },
      verify: [
        'read the raw body bytes before parsing JSON',
        `compare ${SIGNATURE_HEADER} with HMAC-SHA256(secret, raw body) in constant time`,
        `refuse a ${TIMESTAMP_HEADER} more than ${DEFAULT_TOLERANCE_SECONDS} s from your clock`,
        `compare ${TIMESTAMPED_SIGNATURE_HEADER} with HMAC-SHA256(secret, delivery + "." + timestamp + "." + raw body) in constant time`,
        `remember ${DELIVERY_HEADER} values you processed and skip repeats`,
      ],
      replay_window_seconds: DEFAULT_TOLERANCE_SECONDS,
      secret_rotation:
        'POST /alerts/subscriptions/{id}/rotate-secret; every delivery from then on (retries of earlier events included) is signed with the new secret',
    },
    retry_policy: {
      attempts: MAX_ATTEMPTS,
      schedule_seconds: RETRY_SCHEDULE_MS.map(seconds),
      schedule: '5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the previous failure (about 28 h in all)',
      jitter: `each delay is scaled by a random factor between ${1 - JITTER} and ${1 + JITTER}`,
      failure: `a non-2xx answer, no answer within ${timeoutMs / 1000} s, a network error, or an address the SSRF rules refuse`,
      retry_after: `a Retry-After header (seconds or HTTP date) postpones the next attempt, up to ${seconds(MAX_RETRY_AFTER_MS) / 3600} h`,
      gone: '410 Gone disables the subscription at once; nothing is retried',
      exhausted: 'after the last attempt the delivery is marked failed (see GET /alerts/log)',
    },
    states: {
      created: 'the answer to POST /alerts/subscriptions',
      active: 'delivering',
      failing: 'the latest delivery failed; retries continue; any success makes it active again',
      disabled: `failing for ${seconds(DISABLE_AFTER_FAILING_MS) / 86400} days without a success, or a 410 answer; queued deliveries are cancelled. A successful test (POST /alerts/subscriptions/{id}/test) makes it active again for events from then on`,
    },
    limits: {
      max_subscriptions_per_key: MAX_SUBSCRIPTIONS_PER_KEY,
      over_limit: '409 Conflict; delete a subscription first (deleted ones do not count)',
      plans: 'Pro and Max keys; other keys get 403',
      credits: 'deliveries and subscription calls cost no credits',
    },
    url_rules: {
      schemes: ['http', 'https'],
      refused:
        'URLs with a user name or password, and hosts that resolve to loopback, private (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10), link-local (169.254/16, fe80::/10), unique-local (fc00::/7), multicast, unspecified, documentation or other reserved addresses, IPv4-mapped IPv6 forms of those included',
      when: 'when the subscription is created (every resolved address) and on the address each delivery connects to',
      operator_exemptions:
        'the operator may exempt ranges with DCLEDGER_WEBHOOK_ALLOW_CIDRS (e.g. 127.0.0.1/32 for a receiver on the same machine); the refusal names it',
    },
    verification_examples: [
      { language: 'javascript', runtime: 'Node.js, no dependencies', code: NODE_EXAMPLE },
      {
        language: 'javascript',
        runtime: 'Node.js, no dependencies (the Standard Webhooks signature)',
        code: STANDARD_NODE_EXAMPLE,
      },
      { language: 'typescript', runtime: 'Node.js with the verifyWebhook helper', code: TYPESCRIPT_EXAMPLE },
      { language: 'python', runtime: 'Python 3 standard library', code: PYTHON_EXAMPLE },
      { language: 'shell', runtime: 'openssl', code: SHELL_EXAMPLE },
    ],
  };
}
