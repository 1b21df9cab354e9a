// The request parts several alert operations share: the subscription id of the paths and the
// signing secret a create or a rotation may set.
import { Type } from 'typebox';

export const SubscriptionId = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Subscription id' }),
});

export const Secret = (description: string) =>
  Type.String({
    minLength: 16,
    maxLength: 256,
    // Not all whitespace, no control characters: such a secret is a copy-paste accident that
    // signs nothing the receiver can reproduce.
    pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$',
    description: `${description}; 16 to 256 characters, not all whitespace, no control characters. Stored so that it can sign (encrypted when the operator configures a key); never shown again`,
  });
