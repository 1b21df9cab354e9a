// GET /alerts/webhook-events (public)

import { EventCatalogSchema } from '../../../resources/webhook-docs.js';
import { catalogEvents } from '../../../webhooks/event-catalog.js';
import { deliveryBody } from '../../../webhooks/runtime.js';
import type { App } from '../../types.js';

export function webhookEventsRoute(app: App): void {
  const events = catalogEvents().map((entry) => ({
    event: entry.event,
    fires_when: entry.fires_when,
    resource: entry.resource,
    filters: entry.filters,
    payload_schema: entry.payload_schema as unknown as Record<string, unknown>,
    example: JSON.parse(deliveryBody(entry.event, JSON.stringify(entry.example))) as Record<string, unknown>,
  }));
  const answer = {
    count: events.length,
    envelope: {
      type: 'object',
      required: ['event', 'data'],
      properties: {
        event: { type: 'string', enum: events.map((entry) => entry.event) },
        data: { type: 'object', description: 'The event’s resource; see payload_schema per event' },
      },
    },
    events,
  };
  app.get(
    '/alerts/webhook-events',
    {
      schema: {
        operationId: 'webhookEvents',
        tags: ['alerts'],
        summary:
          'The six webhook event types: when they fire, their filters and payload JSON Schemas (public)',
        // The answer never changes while the service runs: it is its own example.
        response: { 200: { ...EventCatalogSchema, examples: [answer] } },
      },
    },
    async () => answer,
  );
}
