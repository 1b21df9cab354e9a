// GET /openapi.json
import { Type } from 'typebox';
import type { App } from '../../types.js';

export function openApiRoute(app: App): void {
  app.get(
    '/openapi.json',
    {
      schema: {
        operationId: 'openapi',
        tags: ['meta'],
        summary: 'This API as OpenAPI 3.1',
        response: {
          200: Type.Object(
            {},
            { additionalProperties: true, examples: [{ openapi: '3.1.0', info: { title: 'dcledger API' } }] },
          ),
        },
      },
    },
    async () => app.swagger(),
  );
}
