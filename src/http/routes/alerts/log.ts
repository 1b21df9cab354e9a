// GET /alerts/log
import { readDeliveryLog } from '../../../webhooks/subscriptions.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';
import { DeliveryLog, LogQuery } from './schema.js';

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
        response: { 200: DeliveryLog, ...errorResponses(422) },
      },
    },
    async (request) => readDeliveryLog(deps.db, callerOf(request).keyId, request.query),
  );
}
