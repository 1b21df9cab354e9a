// GET /account/ledger documents its `kind` field in /openapi.json: the six kinds the ledger
// writes, each explained, so clients can switch on them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, openEmptyApp } from '../../../test-support/app.js';

interface KindSchema {
  type?: string;
  enum?: string[];
  description?: string;
}

describe('the ledger entry kind in OpenAPI', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx.close());

  it('is an enum of charge, grant, topup, allowance and lapse with what each means', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<
              string,
              {
                content?: Record<
                  string,
                  { schema: { properties: { entries: { items: { properties: { kind: KindSchema } } } } } }
                >;
              }
            >;
          }
        >
      >;
    }>();
    const kind =
      document.paths['/account/ledger']?.get?.responses['200']?.content?.['application/json']?.schema
        .properties.entries.items.properties.kind;
    expect(kind?.type).toBe('string');
    expect(kind?.enum).toEqual(['charge', 'grant', 'topup', 'allowance', 'lapse', 'refund']);
    for (const name of kind?.enum ?? []) expect(kind?.description).toContain(`${name}, `);
  });
});
