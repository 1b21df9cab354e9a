// POST /alerts/subscriptions/{id}/rotate-secret
import { Type } from 'typebox';
import { SecretRotatedSchema } from '../../../resources/subscription.js';
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import { rotateSecret } from '../../../webhooks/subscriptions.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';
import { Secret, SubscriptionId } from './requests.js';

const RotateSecretBody = Type.Union([
  Type.Object({
    webhook_secret: Type.Optional(Secret('The new secret; omit it and the service generates one')),
  }),
  Type.Null(),
]);

export function rotateSecretRoute(app: App, deps: AppDeps, runtime: WebhookRuntime): void {
  app.post(
    '/alerts/subscriptions/:id/rotate-secret',
    {
      schema: {
        operationId: 'rotateSubscriptionSecret',
        tags: ['alerts'],
        summary: 'Replace the signing secret; the new one is returned this once',
        description:
          'Send `{ "webhook_secret": "..." }` to choose it, or no body to have one generated. Every delivery from ' +
          'now on, retries of earlier events included, is signed with the new secret.',
        params: SubscriptionId,
        body: RotateSecretBody,
        response: { 200: SecretRotatedSchema, ...errorResponses(400, 404, 422) },
      },
    },
    async (request) =>
      rotateSecret(
        deps.db,
        runtime,
        callerOf(request).keyId,
        request.params.id,
        request.body?.webhook_secret,
        deps.clock(),
      ),
  );
}
