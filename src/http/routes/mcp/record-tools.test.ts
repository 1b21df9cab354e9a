import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TOOLS } from '../../../services/tools.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { DKNG_FORM4_AND_13G, storeRecordedSecDocuments } from '../../../test-support/sec.js';

interface ToolsDoc {
  routing: Record<string, { method: string; path: string; path_params?: string[] }>;
  anthropic: { name: string }[];
}

function textOf(result: unknown): unknown {
  const content = (result as { content: { type: string; text: string }[] }).content;
  const first = content[0];
  if (first?.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text);
}

describe.skipIf(!realDataAvailable())('MCP record tools', () => {
  let ctx: FixtureApp;
  let baseUrl: string;
  let doc: ToolsDoc;

  beforeAll(async () => {
    ctx = await openFixtureApp();
    // The trade fixture has no SEC documents: store real ones through the ingest path.
    await storeRecordedSecDocuments(ctx.store.db, DKNG_FORM4_AND_13G, ctx.clock.now);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    baseUrl = `http://127.0.0.1:${address.port}`;
    doc = (await getJson<ToolsDoc>(ctx, '/v1/tools')).body;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function client(key: string): Promise<Client> {
    const connected = new Client({ name: 'dcledger-test', version: '1.0.0' });
    await connected.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { 'DC-API-Key': key } },
      }),
    );
    return connected;
  }

  /** The REST answer of a tool's route for `args`: body and X-Credits-Charged. */
  async function rest(name: string, args: Record<string, unknown>, key: string) {
    const route = doc.routing[name];
    if (!route) throw new Error(`no route for ${name}`);
    let path = route.path;
    const query = new URLSearchParams();
    for (const [argument, value] of Object.entries(args)) {
      if (route.path_params?.includes(argument)) path = path.replace(`{${argument}}`, String(value));
      else query.set(argument, String(value));
    }
    const response = await ctx.app.inject({ url: `${path}?${query}`, headers: { 'dc-api-key': key } });
    return {
      status: response.statusCode,
      body: response.json<unknown>(),
      credits: Number(response.headers['x-credits-charged']),
    };
  }

  it('lists every record tool and calls each: the REST answer, charged as the REST route', async () => {
    const senator = (
      await getJson<{ positions: { politician_slug: string | null }[] }>(ctx, '/votes/s119-1')
    ).body.positions.find((position) => position.politician_slug !== null)?.politician_slug;
    expect(senator).toBeTruthy();
    const calls: Record<string, { args: Record<string, unknown>; check: (result: unknown) => void }> = {
      insider_trades: {
        args: { ticker: 'DKNG', limit: 5 },
        check: (rows) => expect((rows as { ticker: string }[]).map((row) => row.ticker)).toContain('DKNG'),
      },
      whale_filings: {
        args: { limit: 5 },
        check: (rows) => expect((rows as unknown[]).length).toBeGreaterThan(0),
      },
      lobbying_filings: { args: { limit: 3 }, check: (rows) => expect(rows as unknown[]).toHaveLength(3) },
      contract_awards: { args: { limit: 3 }, check: (rows) => expect(rows as unknown[]).toHaveLength(3) },
      search_bills: {
        args: { q: 'fedramp' },
        check: (rows) => expect((rows as { id: string }[]).map((row) => row.id)).toEqual(['hr21-117']),
      },
      get_bill: {
        args: { id: 'hr21-117' },
        check: (bill) => expect(bill).toMatchObject({ id: 'hr21-117', title: 'FedRAMP Authorization Act' }),
      },
      member_votes: {
        args: { id: senator, limit: 5 },
        check: (rows) => expect((rows as unknown[]).length).toBeGreaterThan(0),
      },
      campaign_finance: {
        args: { id: 'nancy-pelosi' },
        check: (finance) => expect(finance).toBeTypeOf('object'),
      },
    };
    expect(Object.keys(calls).sort()).toEqual(RECORD_TOOLS.map((tool) => tool.name).sort());

    const mcp = await client(ctx.key);
    try {
      const listed = (await mcp.listTools()).tools.map((tool) => tool.name);
      expect(listed).toEqual(doc.anthropic.map((tool) => tool.name));
      expect(listed).toEqual(expect.arrayContaining(Object.keys(calls)));
      for (const [name, { args, check }] of Object.entries(calls)) {
        const result = await mcp.callTool({ name, arguments: args });
        const answer = textOf(result);
        check(answer);
        const direct = await rest(name, args, ctx.key);
        expect(direct.status, name).toBe(200);
        expect(answer, name).toEqual(direct.body);
        expect(result._meta?.['dcledger/credits'], name).toBe(direct.credits);
        expect(direct.credits, name).toBeGreaterThan(0);
      }
    } finally {
      await mcp.close();
    }
  });

  it('keeps the route’s plan gate: a Core tool is a tool result with isError for an account without a plan', async () => {
    const free = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 1_000 });
    const mcp = await client(free.key.api_key);
    try {
      const refusal = await mcp.callTool({ name: 'insider_trades', arguments: { limit: 1 } });
      expect(refusal.isError).toBe(true);
      expect(refusal._meta?.['dcledger/status']).toBe(403);
      expect(refusal._meta?.['dcledger/error']).toMatchObject({ status: 403, required_plan: 'core' });
      expect((refusal.content as { text: string }[])[0]?.text).toMatch(/core/);
      const bills = await mcp.callTool({ name: 'search_bills', arguments: { q: 'fedramp' } });
      expect(textOf(bills)).toEqual([expect.objectContaining({ id: 'hr21-117' })]);
    } finally {
      await mcp.close();
    }
  });
});
