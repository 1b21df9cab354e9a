// The public webhook documentation as the API serves it: the event catalog (every event with its
// payload schema and an example) and the integration guide. Their examples are built from the
// running service's own tables, by the routes that serve them.
import { Type } from 'typebox';

const OpenObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const EventCatalogSchema = Type.Object({
  count: Type.Integer(),
  envelope: OpenObject('The body of every delivery'),
  events: Type.Array(
    Type.Object({
      event: Type.String(),
      fires_when: Type.String(),
      resource: Type.String({ description: 'The REST resource `data` is shaped as' }),
      filters: Type.Array(Type.Object({ name: Type.String(), matches: Type.String() })),
      payload_schema: OpenObject('JSON Schema (2020-12) of `data`'),
      example: OpenObject('An example body: { event, data }'),
    }),
  ),
});

export const WebhookGuideSchema = OpenObject(
  'Signature scheme, headers, retry policy, states, limits, address rules and verification examples',
);
