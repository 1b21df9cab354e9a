// What the API and the worker share to send deliveries: the SSRF policy, the secret box and an
// HTTP sender bound to both.
import type { WebhookSettings } from '../config/webhooks.js';
import { type AddressPolicy, type Resolver, systemResolver } from './address-guard.js';
import { SecretBox, SecretUnavailableError } from './secrets.js';
import { createSender, type SendResult, type WebhookSender } from './sender.js';
import { signedHeaders, TEST_HEADER } from './verify.js';

export interface WebhookRuntime {
  policy: AddressPolicy;
  secrets: SecretBox;
  sender: WebhookSender;
  /** How long one delivery may take (published by the guide). */
  timeoutMs: number;
}

export type RuntimeSettings = Pick<WebhookSettings, 'allowCidrs' | 'secretKey' | 'timeoutMs'>;

export function createWebhookRuntime(
  settings: RuntimeSettings,
  options: { resolve?: Resolver; connections?: number } = {},
): WebhookRuntime {
  const policy: AddressPolicy = { allow: settings.allowCidrs, resolve: options.resolve ?? systemResolver };
  return {
    policy,
    secrets: new SecretBox(settings.secretKey),
    sender: createSender({ policy, timeoutMs: settings.timeoutMs, connections: options.connections }),
    timeoutMs: settings.timeoutMs,
  };
}

export interface SignedDelivery {
  url: string;
  /** The sealed secret as stored; opened only here, for the HMAC. */
  sealedSecret: string;
  event: string;
  /** The event's data as stored JSON text: the bytes signed are the bytes sent. */
  dataJson: string;
  deliveryUid: string;
  now: Date;
  test?: boolean;
}

/** `{ "event": ..., "data": ... }` exactly as it goes on the wire. */
export function deliveryBody(event: string, dataJson: string): string {
  return `{"event":${JSON.stringify(event)},"data":${dataJson}}`;
}

/** Signs and sends one delivery attempt. */
export async function sendSigned(runtime: WebhookRuntime, delivery: SignedDelivery): Promise<SendResult> {
  const body = deliveryBody(delivery.event, delivery.dataJson);
  let secret: string;
  try {
    secret = runtime.secrets.open(delivery.sealedSecret);
  } catch (error) {
    // Nothing is sent unsigned; the attempt fails and is retried (the operator can restore the key).
    if (!(error instanceof SecretUnavailableError)) throw error;
    const reason = `cannot sign: ${error.message}`;
    return {
      ok: false,
      statusCode: null,
      latencyMs: 0,
      retryAfter: undefined,
      error: reason,
      blocked: false,
    };
  }
  const headers = signedHeaders({
    event: delivery.event,
    deliveryId: delivery.deliveryUid,
    timestamp: Math.floor(delivery.now.getTime() / 1000),
    rawBody: body,
    secret,
  });
  if (delivery.test) headers[TEST_HEADER] = 'true';
  return runtime.sender.send({ url: delivery.url, body, headers });
}
