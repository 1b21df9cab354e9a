// GET /alerts/webhooks/guide (public)
import { WebhookGuideSchema } from '../../../resources/webhook-docs.js';
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import type { App } from '../../types.js';
import { webhookGuide } from './guide-content.js';

export function webhookGuideRoute(app: App, runtime: WebhookRuntime): void {
  const guide = webhookGuide(runtime.timeoutMs);
  app.get(
    '/alerts/webhooks/guide',
    {
      schema: {
        operationId: 'webhookGuide',
        tags: ['alerts'],
        summary:
          'Machine-readable webhook integration guide: signatures, headers, retries, verification examples (public)',
        response: { 200: { ...WebhookGuideSchema, examples: [guide] } },
      },
    },
    async () => guide,
  );
}
