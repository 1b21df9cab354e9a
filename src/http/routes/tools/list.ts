// GET /v1/tools (public): tool routing and LLM tool definitions generated from the real routes'
// schemas (src/services/tools.ts, the same definitions the MCP server and the assistant use).
import { Type } from 'typebox';
import { toolsDocument } from '../../../services/tools.js';
import { serviceBaseUrl } from '../../public-url.js';
import type { RouteCatalog } from '../../route-catalog.js';
import type { App, AppDeps } from '../../types.js';

const Tools = Type.Object(
  {
    base_url: Type.String(),
    auth: Type.Object({ header: Type.String(), key_prefix: Type.String(), billing: Type.String() }),
    routing: Type.Record(
      Type.String(),
      Type.Object({
        method: Type.String(),
        path: Type.String(),
        path_params: Type.Optional(Type.Array(Type.String())),
      }),
    ),
    anthropic: Type.Array(
      Type.Object({
        name: Type.String(),
        description: Type.String(),
        input_schema: Type.Object({}, { additionalProperties: true }),
      }),
    ),
    openai: Type.Array(
      Type.Object({
        type: Type.Literal('function'),
        function: Type.Object({
          name: Type.String(),
          description: Type.String(),
          parameters: Type.Object({}, { additionalProperties: true }),
        }),
      }),
    ),
  },
  {
    examples: [
      {
        base_url: 'https://api.example.org',
        auth: { header: 'DC-API-Key', key_prefix: 'dc_', billing: 'Every call is metered in credits.' },
        routing: { query_trades: { method: 'GET', path: '/trades' } },
        anthropic: [
          {
            name: 'query_trades',
            description: 'Query disclosed stock trades',
            input_schema: { type: 'object', properties: {} },
          },
        ],
        openai: [
          {
            type: 'function',
            function: {
              name: 'query_trades',
              description: 'Query disclosed stock trades',
              parameters: { type: 'object', properties: {} },
            },
          },
        ],
      },
    ],
  },
);

export function listToolsRoute(app: App, deps: AppDeps, catalog: RouteCatalog): void {
  app.get(
    '/v1/tools',
    {
      schema: {
        operationId: 'tools',
        tags: ['meta'],
        summary: 'Tool routing and LLM tool definitions (public)',
        response: { 200: Tools },
      },
    },
    async () => toolsDocument(catalog, serviceBaseUrl(deps.publicUrl, app.server.address())),
  );
}
