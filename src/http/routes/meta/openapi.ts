// GET /openapi.json
import { Type } from 'typebox';
import { listeningUrl } from '../../public-url.js';
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
    async () => {
      const document = app.swagger() as { info?: { termsOfService?: string } };
      const terms = document.info?.termsOfService;
      // OpenAPI wants the terms as an absolute URL. Without DCLEDGER_PUBLIC_URL the document names
      // the listening address (never the Host header, which a client chooses).
      if (terms === undefined || !terms.startsWith('/')) return document;
      return {
        ...document,
        info: { ...document.info, termsOfService: `${listeningUrl(app.server.address())}${terms}` },
      };
    },
  );
}
