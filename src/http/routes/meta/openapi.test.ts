import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_TABLE } from '../../../accounts/price-table.js';
import { type FixtureApp, getJson, openEmptyApp } from '../../../test-support/app.js';

type MediaType = { schema?: { examples?: unknown[] }; example?: unknown; examples?: Record<string, unknown> };
type Operation = {
  parameters?: { name: string; in: string }[];
  responses: Record<string, { content?: Record<string, MediaType> }>;
  'x-tier'?: string;
  'x-credits'?: { base: number; per_row: number };
  security?: unknown[];
};

describe('GET /openapi.json and /docs', () => {
  let ctx: FixtureApp;
  let spec: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  beforeAll(async () => {
    ctx = await openEmptyApp();
    spec = (await getJson<typeof spec>({ app: ctx.app }, '/openapi.json')).body;
  });
  afterAll(async () => ctx?.close());

  it('is OpenAPI 3.1 with the key header as security scheme', () => {
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.components.securitySchemes.DCApiKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'DC-API-Key' }),
    );
  });

  it('documents every route with its parameters, a response schema and an example', () => {
    const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(Object.keys(PRICE_TABLE).length);
    for (const { path, method, operation } of operations) {
      // The success answer: 200, or 201/202 for the account area's creating and mailing routes.
      const success = operation.responses['200'] ?? operation.responses['201'] ?? operation.responses['202'];
      const media = success?.content?.['application/json'];
      // A download whose 200 is a file (GET /bulk/trades) names each of its media types instead.
      const files = Object.entries(success?.content ?? {}).filter(([type]) => type !== 'application/json');
      if (!media && files.length > 0) {
        for (const [type, file] of files) expect(file.schema, `${method} ${path} ${type}`).toBeDefined();
        continue;
      }
      expect(media?.schema, `${method} ${path}`).toBeDefined();
      const hasExample =
        media?.example !== undefined ||
        Object.keys(media?.examples ?? {}).length > 0 ||
        (media?.schema?.examples?.length ?? 0) > 0;
      expect(hasExample, `${method} ${path} example`).toBe(true);
      for (const param of path.match(/\{(\w+)\}/g) ?? []) {
        expect(
          operation.parameters?.some((p) => p.in === 'path' && `{${p.name}}` === param),
          `${method} ${path} ${param}`,
        ).toBe(true);
      }
    }
    const trades = spec.paths['/trades']?.get;
    expect(trades?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['ticker', 'days', 'date_from', 'limit', 'sort_by']),
    );
  });

  it('carries the price table as x- extensions and the metering errors', () => {
    for (const [route, price] of Object.entries(PRICE_TABLE)) {
      const [method, url] = route.split(' ');
      const operation = spec.paths[(url ?? '').replace(/:(\w+)/g, '{$1}')]?.[(method ?? '').toLowerCase()];
      expect(operation?.['x-tier'], route).toBe(price.tier);
      expect(operation?.['x-credits'], route).toEqual({
        base: price.base,
        per_row: price.perRow,
        per_executive_row: price.perExecutiveRow,
      });
      expect(operation?.security, route).toEqual([{ DCApiKey: [] }]);
      for (const status of ['401', '402', '403', '429'])
        expect(operation?.responses[status], `${route} ${status}`).toBeDefined();
    }
  });

  it('serves the reference page', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });
});
