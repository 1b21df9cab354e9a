// What an account's keys spent, as the API serves it: calls and credits summed by day, route or
// key, and the latest calls one by one (the request log). Schemas, types and examples written once
// here; the queries stay with the routes.
import { type Static, Type } from 'typebox';

export const UsageReportSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  group_by: Type.String(),
  totals: Type.Object({ calls: Type.Integer(), credits: Type.Integer() }),
  rows: Type.Array(
    Type.Object({
      bucket: Type.String({ description: 'The day, the route ("GET /trades") or the key id' }),
      calls: Type.Integer(),
      credits: Type.Integer(),
      errors: Type.Integer(),
    }),
  ),
});

export type UsageReport = Static<typeof UsageReportSchema>;

export const USAGE_REPORT_EXAMPLE: UsageReport = {
  from: '2026-10-24T10:00:00.000Z',
  to: '2026-11-23T10:00:00.001Z',
  group_by: 'endpoint',
  totals: { calls: 3, credits: 45 },
  rows: [
    { bucket: 'GET /stats/summary', calls: 1, credits: 5, errors: 0 },
    { bucket: 'GET /trades', calls: 2, credits: 40, errors: 0 },
  ],
};

export const RecentRequestsSchema = Type.Object({
  requests: Type.Array(
    Type.Object({
      created_at: Type.String(),
      method: Type.String(),
      route: Type.String(),
      status: Type.Integer(),
      charge: Type.Integer(),
      request_id: Type.String(),
      key_id: Type.Integer(),
    }),
  ),
});

export type RecentRequests = Static<typeof RecentRequestsSchema>;

export const RECENT_REQUESTS_EXAMPLE: RecentRequests = {
  requests: [
    {
      created_at: '2026-11-23T10:02:11.000Z',
      method: 'GET',
      route: 'GET /trades',
      status: 200,
      charge: 20,
      request_id: '0d9f6c1e-7b1a-4c55-9d1e-5b8f3e0a2c11',
      key_id: 12,
    },
  ],
};
