// /openapi.json as generators need it: Redocly's recommended ruleset and Spectral's oas ruleset find
// nothing (run from node_modules, offline), shapes are named components, every operation lists its
// errors and the headers the server really sends, public routes say so, webhooks are described.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicRoute, isSessionRoute } from '../../accounts/price-table.js';
import { addAccount, type FixtureApp, openEmptyApp } from '../../test-support/app.js';
import { EVENT_TYPES } from '../../webhooks/event-catalog.js';
import { NAMED_SCHEMAS } from './openapi-components.js';
import { finishDocument } from './openapi-document.js';
import { INTEGER_RANGE } from './validation.js';

const run = promisify(execFile);
const BIN = join(process.cwd(), 'node_modules', '.bin');
// Offline and quiet: no telemetry, no update check.
const LINT_ENV = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_COLOR: '1',
};

type Json = Record<string, unknown>;
interface Response {
  description: string;
  headers?: Record<string, { $ref?: string }>;
  content?: Record<string, { schema?: { $ref?: string; items?: { $ref?: string } } }>;
}
interface Operation {
  security?: unknown[];
  'x-tier'?: string;
  'x-paging'?: unknown;
  responses: Record<string, Response>;
}
interface Document {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<
    string,
    { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }
  >;
  components: { schemas: Record<string, Json>; headers: Record<string, Json> };
}

function operations(document: Document) {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
}

const headerNames = (response: Response | undefined) => Object.keys(response?.headers ?? {});

describe('the OpenAPI document', () => {
  let ctx: FixtureApp;
  let document: Document;
  let directory: string;
  let file: string;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    document = (await ctx.app.inject({ url: '/openapi.json' })).json<Document>();
    directory = mkdtempSync(join(tmpdir(), 'dcledger-openapi-'));
    file = join(directory, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    writeFileSync(join(directory, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
  });
  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await ctx?.close();
  });

  it('passes Redocly’s recommended ruleset with no error and no warning', async () => {
    const { stdout } = await run(
      join(BIN, 'redocly'),
      ['lint', '--extends', 'recommended', '--format', 'json', file],
      { cwd: directory, env: LINT_ENV, maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(stdout) as {
      problems: { ruleId: string; message: string; location: unknown }[];
    };
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
  }, 120_000);

  it('passes Spectral’s oas ruleset with no error and no warning', async () => {
    const { stdout } = await run(
      join(BIN, 'spectral'),
      [
        'lint',
        '--ruleset',
        join(directory, '.spectral.yaml'),
        '--format',
        'json',
        '--fail-severity',
        'hint',
        file,
      ],
      { cwd: directory, env: LINT_ENV, maxBuffer: 64 * 1024 * 1024 },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    // Spectral prints the JSON list, then a sentence when it is empty.
    const results = JSON.parse(stdout.slice(0, stdout.lastIndexOf(']') + 1)) as {
      code: string;
      message: string;
      path: string[];
    }[];
    expect(results.map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`)).toEqual([]);
  }, 120_000);

  it('names the resource shapes as components and refers to them', () => {
    for (const name of Object.keys(NAMED_SCHEMAS))
      expect(document.components.schemas[name], name).toBeDefined();
    const trades = document.paths['/trades']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(trades?.items?.$ref).toBe('#/components/schemas/Trade');
    const whale =
      document.paths['/whales/{id}']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(whale?.$ref).toBe('#/components/schemas/Whale');
    expect(JSON.stringify(document.components.schemas.Whale)).toContain('#/components/schemas/WhalePerson');
  });

  it('gives every operation its error answers with the Error schema and the headers it sends', () => {
    const all = operations(document);
    expect(all.length).toBeGreaterThan(40);
    for (const { path, method, operation } of all) {
      const route = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => /^4/.test(status)),
        route,
      ).toBe(true);
      expect(
        statuses.some((status) => /^5/.test(status)),
        route,
      ).toBe(true);
      for (const [status, response] of Object.entries(operation.responses)) {
        expect(headerNames(response), `${route} ${status}`).toContain('X-Request-Id');
        if (!/^[45]/.test(status)) continue;
        expect(response.content?.['application/json']?.schema?.$ref, `${route} ${status}`).toBe(
          '#/components/schemas/Error',
        );
      }
      const key = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
      if (operation['x-tier']) {
        const success = operation.responses['200'];
        expect(headerNames(success), route).toEqual(
          expect.arrayContaining([
            'RateLimit-Limit',
            'RateLimit-Remaining',
            'RateLimit-Reset',
            'X-Credits-Charged',
            'X-Credits-Remaining',
          ]),
        );
        expect(headerNames(operation.responses['429']), route).toContain('Retry-After');
        expect(operation.security, route).toEqual([{ DCApiKey: [] }]);
      } else if (isSessionRoute(key)) {
        expect(operation.security, route).toEqual([{ DCSession: [] }, {}]);
      } else {
        expect(isPublicRoute(key), route).toBe(true);
        expect(operation.security, route).toEqual([]);
      }
    }
  });

  it('documents exactly the headers the server sends on a metered list and a public route', async () => {
    const trades = await ctx.app.inject({ url: '/trades?limit=1', headers: { 'dc-api-key': ctx.key } });
    expect(trades.statusCode).toBe(200);
    for (const name of headerNames(document.paths['/trades']?.get?.responses['200'])) {
      // Link is sent while a full page came back; the empty database gives an empty page.
      if (name === 'Link') continue;
      expect(trades.headers[name.toLowerCase()], name).toBeDefined();
    }
    const tools = await ctx.app.inject({ url: '/v1/tools' });
    expect(headerNames(document.paths['/v1/tools']?.get?.responses['200'])).toEqual(['X-Request-Id']);
    expect(tools.headers['x-request-id']).toBeDefined();
    expect(tools.headers['x-credits-charged']).toBeUndefined();

    const limited = await addAccount(ctx.store, ctx.clock, { plan: 'none' });
    let refused: Awaited<ReturnType<typeof ctx.app.inject>> | undefined;
    for (let attempt = 0; attempt < 100 && !refused; attempt += 1) {
      const answer = await ctx.app.inject({
        url: '/credits/balance',
        headers: { 'dc-api-key': limited.key.api_key },
      });
      if (answer.statusCode === 429) refused = answer;
    }
    expect(refused?.statusCode).toBe(429);
    for (const name of headerNames(document.paths['/credits/balance']?.get?.responses['429'])) {
      expect(refused?.headers[name.toLowerCase()], name).toBeDefined();
    }
  });

  it('publishes integer bounds no wider than the server enforces, and the server takes the bounds it publishes', async () => {
    // Every integer a request may carry (parameters and bodies), wherever it sits in the schema.
    const integers: { where: string; minimum?: number; maximum?: number }[] = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${where}/${i}`);
        return;
      }
      if (typeof node !== 'object' || node === null) return;
      const schema = node as { type?: unknown; minimum?: number; maximum?: number };
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (types.includes('integer'))
        integers.push({ where, minimum: schema.minimum, maximum: schema.maximum });
      for (const [key, value] of Object.entries(node)) if (key !== 'example') walk(value, `${where}/${key}`);
    };
    for (const { path, method, operation } of operations(document)) {
      const { parameters, requestBody } = operation as { parameters?: unknown; requestBody?: unknown };
      walk(parameters, `${method} ${path} parameters`);
      walk(requestBody, `${method} ${path} body`);
    }
    expect(integers.length).toBeGreaterThan(50);
    const wider = integers.filter(
      (integer) =>
        integer.minimum === undefined ||
        integer.maximum === undefined ||
        integer.minimum < INTEGER_RANGE.min ||
        integer.maximum > INTEGER_RANGE.max,
    );
    expect(wider).toEqual([]);
    // The edges of the published offset: the largest is an (empty) page, one more is refused.
    const trades = document.paths['/trades']?.get as unknown as
      | { parameters: { name: string; schema: { maximum: number } }[] }
      | undefined;
    const offset = trades?.parameters.find((parameter) => parameter.name === 'offset')?.schema.maximum;
    expect(offset).toBe(INTEGER_RANGE.max);
    const at = await ctx.app.inject({ url: `/trades?offset=${offset}`, headers: { 'dc-api-key': ctx.key } });
    expect(at.statusCode).toBe(200);
    const past = await ctx.app.inject({
      url: `/trades?offset=${(offset ?? 0) + 1}`,
      headers: { 'dc-api-key': ctx.key },
    });
    expect(past.statusCode).toBeGreaterThanOrEqual(400);
    expect(past.statusCode).toBeLessThan(500);
    expect(past.json<{ detail: string }>().detail).toMatch(/offset/);
  });

  it('describes every webhook event in the webhooks section', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const [event, webhook] of Object.entries(document.webhooks)) {
      const schema = webhook.post.requestBody.content['application/json']?.schema;
      expect(schema?.$ref, event).toMatch(/^#\/components\/schemas\/\w+Event$/);
    }
    const trade = document.components.schemas.TradeCreatedEvent as { properties: { data: { $ref: string } } };
    expect(trade.properties.data.$ref).toBe('#/components/schemas/Trade');
  });

  it('makes a route declared with no summary, id, tag, description or errors lint-clean as well', async () => {
    const bare = finishDocument(
      {
        openapi: '3.1.0',
        info: { title: 'bare', version: '1', description: 'A document with one route that declared nothing' },
        paths: {
          '/docs/extra/{name}': { get: { responses: { '200': { description: 'Default Response' } } } },
        },
        components: {},
      },
      { publicUrl: 'https://api.dcledger.test', tags: [] },
    ) as unknown as Document;
    const operation = bare.paths['/docs/extra/{name}']?.get as Operation & Record<string, unknown>;
    expect(operation).toMatchObject({
      summary: 'GET /docs/extra/:name',
      operationId: 'getDocsExtraName',
      tags: ['docs'],
    });
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '404', '500']);
    const bareFile = join(directory, 'bare.json');
    writeFileSync(bareFile, JSON.stringify(bare));
    const redocly = await run(
      join(BIN, 'redocly'),
      ['lint', '--extends', 'recommended', '--format', 'json', bareFile],
      {
        cwd: directory,
        env: LINT_ENV,
      },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const problems = (JSON.parse(redocly.stdout) as { problems: { ruleId: string; message: string }[] })
      .problems;
    // The bare document names no shape, so its Error component is its only schema: nothing unused.
    expect(problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    const spectral = await run(
      join(BIN, 'spectral'),
      [
        'lint',
        '--ruleset',
        join(directory, '.spectral.yaml'),
        '--format',
        'json',
        '--fail-severity',
        'hint',
        bareFile,
      ],
      { cwd: directory, env: LINT_ENV },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const results = JSON.parse(spectral.stdout.slice(0, spectral.stdout.lastIndexOf(']') + 1)) as {
      code: string;
      message: string;
    }[];
    expect(results.map((result) => `${result.code}: ${result.message}`)).toEqual([]);
  }, 120_000);

  it('publishes the configured public URL as its server, else the host it was fetched from', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const configured = finishDocument(
      { info: {}, paths: {} },
      { publicUrl: 'https://api.example.org/', tags: [] },
    );
    expect(configured.servers).toEqual([expect.objectContaining({ url: 'https://api.example.org' })]);
  });
});
