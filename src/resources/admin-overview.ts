// What an operator sees at GET /account/admin: every account with its plan, balance, grants and
// active keys, the revoked keys and the pending top-ups. Published as an open object whose
// description and example name its fields.
import { Type } from 'typebox';

export const AdminOverviewSchema = Type.Object(
  {},
  {
    additionalProperties: true,
    examples: [{ accounts: [], revoked_keys: [], pending_topups: [] }],
    description: 'accounts (plan, balance, grants, active keys), revoked_keys, pending_topups',
  },
);
