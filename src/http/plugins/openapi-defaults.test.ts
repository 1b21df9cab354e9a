// No parameter that has a default is marked required in /openapi.json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, openEmptyApp } from '../../test-support/app.js';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { default?: unknown };
}

describe('OpenAPI parameters with defaults', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx.close());

  it('are never required', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
    }>();
    const offenders: string[] = [];
    let defaulted = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.schema?.default === undefined) continue;
          defaulted += 1;
          if (parameter.required) offenders.push(`${method.toUpperCase()} ${path} ${parameter.name}`);
        }
      }
    }
    expect(offenders).toEqual([]);
    // limit/offset/days on the list routes: the check saw them.
    expect(defaulted).toBeGreaterThan(10);
    const trades = document.paths['/trades']?.get?.parameters ?? [];
    expect(trades.find((parameter) => parameter.name === 'limit')?.required ?? false).toBe(false);
  });

  it('validation still fills the defaults in', async () => {
    const response = await ctx.app.inject({ url: '/trades', headers: { 'dc-api-key': ctx.key } });
    expect(response.statusCode).toBe(200);
  });
});
