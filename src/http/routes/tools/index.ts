// GET /v1/tools (public): tool routing and LLM tool definitions generated from the real routes'
// schemas, so that a tool's input schema is exactly what the route accepts.

import { Type } from 'typebox';
import { openApiPath } from '../../../accounts/price-table.js';
import { serviceBaseUrl } from '../../public-url.js';
import type { CatalogEntry, RouteCatalog } from '../../route-catalog.js';
import type { App, AppDeps } from '../../types.js';

interface ToolSpec {
  name: string;
  method: 'GET';
  url: string;
  description: string;
}

/** The five tools of the interface, in its order. */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'lookup',
    method: 'GET',
    url: '/search',
    description:
      'Find politicians, tickers and bills by name, ticker symbol, bill number or prefix. Use it to turn a name into a politician_id or slug.',
  },
  {
    name: 'query_trades',
    method: 'GET',
    url: '/trades',
    description:
      'Query disclosed stock trades of members of Congress and executive-branch officials, filtered by ticker, member, party, chamber, state, trade type, asset type, sector and disclosure date window.',
  },
  {
    name: 'semantic_search',
    method: 'GET',
    url: '/v1/semantic-search',
    description: 'Search trades, members and bills by meaning with a free-text question.',
  },
  {
    name: 'get_portfolio',
    method: 'GET',
    url: '/portfolio/:politician_id',
    description: "A member's holdings reconstructed from their disclosed trades.",
  },
  {
    name: 'get_conflicts',
    method: 'GET',
    url: '/conflict/:politician_id',
    description: "Trades in sectors overseen by the member's committees (potential conflicts of interest).",
  },
];

interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
}

function plain(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema ?? {})) as Record<string, unknown>;
}

/** Path and query parameters of a route as one JSON Schema object. */
export function inputSchemaOf(entry: CatalogEntry): JsonSchemaObject {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const source of [entry.params, entry.querystring]) {
    const schema = plain(source);
    const props = (schema.properties ?? {}) as Record<string, unknown>;
    Object.assign(properties, props);
    // A parameter with a default is optional to a caller even though the route's schema lists it.
    for (const name of (schema.required ?? []) as string[]) {
      const property = props[name] as { default?: unknown } | undefined;
      if (property?.default === undefined && !required.includes(name)) required.push(name);
    }
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] as string);
}

export function toolsDocument(catalog: RouteCatalog, baseUrl: string) {
  const available = TOOLS.flatMap((tool) => {
    const entry = catalog.get(`${tool.method} ${tool.url}`);
    return entry ? [{ tool, entry }] : [];
  });
  const routing: Record<string, { method: string; path: string; path_params?: string[] }> = {};
  for (const { tool } of available) {
    const params = pathParams(tool.url);
    routing[tool.name] = {
      method: tool.method,
      path: openApiPath(tool.url),
      ...(params.length ? { path_params: params } : {}),
    };
  }
  return {
    base_url: baseUrl,
    auth: {
      header: 'DC-API-Key',
      key_prefix: 'dc_',
      billing:
        'Every call is metered in credits: the endpoint base charge plus a per-row charge (trade data: 15 + 1 per row, executive-branch rows 5 each). Failed calls are free. Prices: GET /credits/endpoints.',
    },
    routing,
    anthropic: available.map(({ tool, entry }) => ({
      name: tool.name,
      description: tool.description,
      input_schema: inputSchemaOf(entry),
    })),
    openai: available.map(({ tool, entry }) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: inputSchemaOf(entry) },
    })),
  };
}

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

export function toolRoutes(app: App, deps: AppDeps, catalog: RouteCatalog): void {
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
