// The account's credit ledger as the API serves it: a page of lines, newest first, each saying what
// it records. Schema, type and example written once here; the paging query stays with the route.
import { type Static, Type } from 'typebox';
import { LEDGER_KIND_MEANINGS, LEDGER_KINDS } from '../storage/ledger-kinds.js';
import { Nullable, StringEnum } from './schema.js';

export const LedgerEntrySchema = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(LEDGER_KINDS, {
    description: `What the line records: ${LEDGER_KINDS.map((kind) => `${kind}, ${LEDGER_KIND_MEANINGS[kind]}`).join('; ')}`,
  }),
  amount: Type.Integer(),
  key_id: Nullable(Type.Integer()),
  route: Nullable(Type.String()),
  request_id: Nullable(Type.String()),
  note: Nullable(Type.String()),
  created_at: Type.String(),
});

export const LedgerPageSchema = Type.Object({
  entries: Type.Array(LedgerEntrySchema),
  next_before: Nullable(Type.Integer()),
});

export type LedgerPage = Static<typeof LedgerPageSchema>;

export const LEDGER_PAGE_EXAMPLE: LedgerPage = {
  entries: [
    {
      id: 41,
      kind: 'charge',
      amount: -40,
      key_id: 12,
      route: 'GET /trades',
      request_id: '0d9f6c1e-7b1a-4c55-9d1e-5b8f3e0a2c11',
      note: null,
      created_at: '2026-11-23T10:02:11.000Z',
    },
    {
      id: 2,
      kind: 'grant',
      amount: 750,
      key_id: null,
      route: null,
      request_id: null,
      note: 'sign-up',
      created_at: '2026-11-23T08:55:00.000Z',
    },
  ],
  next_before: null,
};
