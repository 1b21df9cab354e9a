// GET /alerts/log
import { Type } from 'typebox';
import { DeliveryLogSchema } from '../../../resources/delivery.js';
import { readDeliveryLog } from '../../../webhooks/subscriptions.js';
import { errorResponses, Limit, Offset, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';

const LogQuery = Type.Object({
  limit: Limit(50, 1000),
  offset: Offset,
  subscription_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  status: Type.Optional(
    StringEnum(['pending', 'delivered', 'failed', 'cancelled'] as const, {
      description:
        'pending (queued or awaiting a retry), delivered, failed (retries exhausted or 410), cancelled',
    }),
  ),
});

export function deliveryLogRoute(app: App, deps: AppDeps): void {
  app.get(
    '/alerts/log',
    {
      schema: {
        operationId: 'deliveryLog',
        tags: ['alerts'],
        summary: "Delivery history of the calling key's subscriptions, newest first, with every attempt",
        description:
          'Each delivery: event, status, attempts, last response code and latency, next retry, the state of its ' +
          'subscription, and every attempt. Page with `limit` and `offset`; filter by `subscription_id` or `status`.',
        querystring: LogQuery,
        response: { 200: DeliveryLogSchema, ...errorResponses(422) },
      },
    },
    async (request) => readDeliveryLog(deps.db, callerOf(request).keyId, request.query),
  );
}
