// An account's audit log as the API serves it: who did what to its keys, plan and payments.
// Schema, type and example written once here.
import { type Static, Type } from 'typebox';
import { Nullable } from './schema.js';

export const AuditLogSchema = Type.Object({
  events: Type.Array(
    Type.Object({
      id: Type.Integer(),
      actor: Type.String(),
      action: Type.String(),
      detail: Nullable(Type.String()),
      created_at: Type.String(),
    }),
  ),
});

export type AuditLog = Static<typeof AuditLogSchema>;

export const AUDIT_LOG_EXAMPLE: AuditLog = {
  events: [
    {
      id: 5,
      actor: 'user',
      action: 'key.revoked',
      detail: 'key 12',
      created_at: '2026-11-23T10:05:00.000Z',
    },
  ],
};
