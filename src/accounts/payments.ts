// Top-ups go through a payment provider. `manual` records an intent that the operator confirms
// with `dcledger payments confirm <id>` once the money arrived; `stripe` (when STRIPE_SECRET_KEY is
// set) opens a Stripe Checkout session and Stripe's signed webhook confirms it.
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ApiError } from '../errors.js';
import {
  findIntent,
  insertAudit,
  insertIntent,
  intentsOf,
  setIntentExternalId,
  settleIntent,
} from '../storage/repositories/self-service.js';
import type { Database } from '../storage/schema.js';
import { inTransaction } from '../storage/transaction.js';
import { topup } from './admin.js';
import { CREDITS_PER_DOLLAR } from './plans.js';
import { sameSecret } from './sessions.js';

export const MIN_TOPUP_DOLLARS = 5;
export const MAX_TOPUP_DOLLARS = 10_000;

export interface CheckoutRequest {
  intentId: number;
  email: string;
  amountCents: number;
  credits: number;
  /** Where the provider sends the buyer back to. */
  returnUrl: string;
}

export interface PaymentProvider {
  readonly name: 'manual' | 'stripe';
  /** Starts a payment; returns the provider's id and the page the buyer pays on, if any. */
  checkout(request: CheckoutRequest): Promise<{ externalId: string | null; payUrl: string | null }>;
}

export const manualProvider: PaymentProvider = {
  name: 'manual',
  checkout: async () => ({ externalId: null, payUrl: null }),
};

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string | undefined;
  /** https://api.stripe.com unless a test points it elsewhere (DCLEDGER_STRIPE_API_BASE). */
  apiBase: string;
}

/** Stripe Checkout through its REST API (form-encoded POST /v1/checkout/sessions). */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  return {
    name: 'stripe',
    async checkout(request) {
      const form = new URLSearchParams({
        mode: 'payment',
        success_url: `${request.returnUrl}?paid=1`,
        cancel_url: `${request.returnUrl}?cancelled=1`,
        customer_email: request.email,
        client_reference_id: String(request.intentId),
        'metadata[intent_id]': String(request.intentId),
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': String(request.amountCents),
        'line_items[0][price_data][product_data][name]': `${request.credits} dcledger credits`,
      });
      const response = await fetch(`${settings.apiBase}/v1/checkout/sessions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${settings.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
          'idempotency-key': `dcledger-intent-${request.intentId}`,
        },
        body: form.toString(),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await response.json().catch(() => null)) as {
        id?: string;
        url?: string;
        error?: { message?: string };
      } | null;
      if (!response.ok || !body?.id || !body.url) {
        throw new ApiError(
          'upstream',
          `The payment provider refused the checkout: ${body?.error?.message ?? `HTTP ${response.status}`}`,
        );
      }
      return { externalId: body.id, payUrl: body.url };
    },
  };
}

export async function requestTopup(
  db: Kysely<Database>,
  provider: PaymentProvider,
  input: { accountId: number; email: string; dollars: number; returnUrl: string },
  now: Date,
) {
  const { dollars } = input;
  if (!Number.isFinite(dollars) || dollars < MIN_TOPUP_DOLLARS || dollars > MAX_TOPUP_DOLLARS) {
    throw new ApiError(
      'unprocessable',
      `amount_usd: must be between ${MIN_TOPUP_DOLLARS} and ${MAX_TOPUP_DOLLARS} dollars`,
      { field: 'amount_usd' },
    );
  }
  const amountCents = Math.round(dollars * 100);
  const credits = Math.floor((amountCents * CREDITS_PER_DOLLAR) / 100);
  const stamp = now.toISOString();
  const intent = await insertIntent(
    db,
    { accountId: input.accountId, provider: provider.name, externalId: null, amountCents },
    stamp,
  );
  const started = await provider.checkout({
    intentId: intent.id,
    email: input.email,
    amountCents,
    credits,
    returnUrl: input.returnUrl,
  });
  if (started.externalId) await setIntentExternalId(db, intent.id, started.externalId);
  await insertAudit(
    db,
    {
      accountId: input.accountId,
      actor: 'user',
      action: 'topup.requested',
      detail: `intent ${intent.id}, $${(amountCents / 100).toFixed(2)} via ${provider.name}`,
    },
    stamp,
  );
  return {
    intent_id: intent.id,
    provider: provider.name,
    status: 'pending' as const,
    amount_usd: amountCents / 100,
    credits,
    pay_url: started.payUrl,
    instructions:
      provider.name === 'manual'
        ? `Pay the operator $${(amountCents / 100).toFixed(2)} quoting intent ${intent.id}; the credits arrive when the operator confirms it.`
        : 'Complete the payment on the checkout page; the credits arrive when the provider confirms it.',
  };
}

/** Settles a pending intent as paid and adds its credits, once. */
export async function confirmIntent(
  db: Kysely<Database>,
  by: { id: number } | { externalId: string },
  actor: 'operator' | 'provider',
  now: Date,
) {
  const intent = await findIntent(db, by);
  if (!intent) throw new ApiError('not_found', 'No such payment intent');
  return inTransaction(db, async (trx) => {
    if (!(await settleIntent(trx, intent.id, 'paid', now.toISOString()))) {
      throw new ApiError('conflict', `Payment intent ${intent.id} is already ${intent.status}`);
    }
    const result = await topup(trx, String(intent.account_id), intent.amount_cents / 100, now, now);
    await insertAudit(
      trx,
      {
        accountId: intent.account_id,
        actor,
        action: 'topup.paid',
        detail: `intent ${intent.id}, ${result.credits} credits`,
      },
      now.toISOString(),
    );
    return { intent_id: intent.id, ...result };
  });
}

export const pendingIntents = (db: Kysely<Database>) => intentsOf(db, null, 'pending');

/** Stripe signs `${timestamp}.${raw body}` with HMAC-SHA256 under the endpoint's secret. */
export function verifyStripeSignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  now: Date,
  toleranceSeconds = 300,
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return parts.some(([name, value]) => name === 'v1' && value !== undefined && sameSecret(value, expected));
}

/** Handles a verified Stripe event: a completed, paid Checkout session confirms its intent. */
export async function handleStripeEvent(db: Kysely<Database>, event: unknown, now: Date) {
  const parsed = event as {
    type?: string;
    data?: { object?: { id?: string; payment_status?: string } };
  };
  const session = parsed.data?.object;
  if (parsed.type !== 'checkout.session.completed' || !session?.id) return { handled: false };
  if (session.payment_status !== 'paid') return { handled: false };
  const intent = await findIntent(db, { externalId: session.id });
  if (intent?.status !== 'pending') return { handled: false };
  await confirmIntent(db, { id: intent.id }, 'provider', now);
  return { handled: true };
}
