// A top-up as the API serves it when one is asked for: the payment intent, where (or how) to pay,
// and the credits it will bring; and what the payment provider's webhook is answered when it
// reports a payment. Schemas, types and examples written once here; the request body stays with
// the route.
import { type Static, Type } from 'typebox';
import { Nullable } from './schema.js';

export const TopupIntentSchema = Type.Object({
  intent_id: Type.Integer(),
  provider: Type.String(),
  status: Type.String(),
  amount_usd: Type.Number(),
  credits: Type.Integer(),
  pay_url: Nullable(Type.String({ description: 'Where to pay (Stripe Checkout); null for manual' })),
  instructions: Type.String(),
});

export type TopupIntent = Static<typeof TopupIntentSchema>;

export const TOPUP_INTENT_EXAMPLE: TopupIntent = {
  intent_id: 3,
  provider: 'manual',
  status: 'pending',
  amount_usd: 25,
  credits: 25_000,
  pay_url: null,
  instructions: 'Pay the operator $25.00 quoting intent 3; the credits arrive when the operator confirms it.',
};

export const StripeEventHandledSchema = Type.Object(
  { handled: Type.Boolean({ description: 'Whether the event confirmed a pending top-up' }) },
  { examples: [{ handled: true }] },
);
