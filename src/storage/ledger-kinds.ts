// The kinds of credit_ledger lines: the column's type (schema/accounts.ts), what the repositories write, and
// the list the API documents (GET /account/ledger's `kind`).

/** What a credit_ledger line records, and what each kind means (the API documents them from here). */
export const LEDGER_KIND_MEANINGS = {
  charge: "a metered call's cost (negative), with its key, route and request id",
  grant: 'credits an operator gave (or the sign-up grant)',
  topup: 'credits bought with a top-up',
  allowance: "a plan period's allowance, granted when the period (or the plan) starts",
  lapse: 'what was left of the previous allowance, taken back when it is replaced (negative)',
  refund:
    "a charged call whose answer never reached the caller (the connection closed before its last byte), given back, with the charge's key, route and request id",
} as const;
export type LedgerKind = keyof typeof LEDGER_KIND_MEANINGS;
export const LEDGER_KINDS = Object.keys(LEDGER_KIND_MEANINGS) as LedgerKind[];
