// The MCP server through the official SDK client, over streamable HTTP (POST /mcp on a listening
// app) and stdio (`dcledger mcp` as a child process): same tools as /v1/tools, each call charged as
// its REST endpoint, the API's refusals as tool results with isError, bad arguments as MCP errors.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { cliArgs, cliEnv } from '../../../test-support/cli.js';
import { repoRoot } from '../../../test-support/data-dir.js';

interface ToolsDoc {
  anthropic: { name: string; description: string; input_schema: unknown }[];
}

function textOf(result: unknown): unknown {
  const content = (result as { content: { type: string; text: string }[] }).content;
  const first = content[0];
  if (first?.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text);
}

async function balance(ctx: FixtureApp, key: string): Promise<number> {
  const { body } = await getJson<{ balance: number }>({ app: ctx.app, key }, '/credits/balance');
  return body.balance;
}

async function mcpError(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

/** Lists the tools, calls each one, and checks each charge against the REST call's. */
async function exerciseTools(ctx: FixtureApp, client: Client, key: string): Promise<void> {
  const { body: doc } = await getJson<ToolsDoc>(ctx, '/v1/tools');
  const listed = await client.listTools();
  expect(listed.tools.map((tool) => tool.name)).toEqual(doc.anthropic.map((tool) => tool.name));
  for (const tool of listed.tools) {
    const same = doc.anthropic.find((entry) => entry.name === tool.name);
    expect(tool.inputSchema).toEqual(same?.input_schema);
    expect(tool.description).toBe(same?.description);
  }

  const found = textOf(await client.callTool({ name: 'lookup', arguments: { q: 'Pelosi' } })) as {
    politicians: { politician_id: number; name: string }[];
  };
  const pelosi = found.politicians.find((politician) => politician.name === 'Nancy Pelosi');
  expect(pelosi).toBeDefined();
  const id = pelosi?.politician_id ?? 0;

  const before = await balance(ctx, key);
  const trades = await client.callTool({
    name: 'query_trades',
    arguments: { politician_id: String(id), date_from: '2020-01-01', date_to: '2020-12-31', limit: 5 },
  });
  const rows = textOf(trades) as { id: number; politician_name: string; disclosure_date: string }[];
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    expect(row.politician_name).toBe('Nancy Pelosi');
    expect(row.disclosure_date.startsWith('2020')).toBe(true);
  }
  // Charged as GET /trades: 15 + 1 per (House) row, and the same answer the REST route gives.
  expect(trades._meta?.['dcledger/credits']).toBe(15 + rows.length);
  expect(await balance(ctx, key)).toBe(before - 15 - rows.length);
  // The same rows the REST route gives (the in-process stdio server runs on the real clock, so
  // clock-relative fields such as days_held may differ).
  const rest = await getJson<{ id: number }[]>(
    { app: ctx.app, key },
    `/trades?politician_id=${id}&date_from=2020-01-01&date_to=2020-12-31&limit=5`,
  );
  expect(rest.body.map((row) => row.id)).toEqual(rows.map((row) => row.id));

  const portfolio = textOf(
    await client.callTool({ name: 'get_portfolio', arguments: { politician_id: id } }),
  ) as { name: string; holdings: unknown[] };
  expect(portfolio.name).toBe('Nancy Pelosi');
  const conflicts = textOf(
    await client.callTool({ name: 'get_conflicts', arguments: { politician_id: id } }),
  ) as { name: string; trades: unknown[] };
  expect(conflicts.name).toBe('Nancy Pelosi');
  const semantic = textOf(
    await client.callTool({ name: 'semantic_search', arguments: { q: 'Pelosi NVIDIA options' } }),
  ) as { results: unknown[] };
  expect(semantic.results.length).toBeGreaterThan(0);

  // Bad arguments: an unknown one never reaches the route; a value the route refuses (422).
  const unknown = await mcpError(client.callTool({ name: 'query_trades', arguments: { colour: 'red' } }));
  expect(unknown.code).toBe(ErrorCode.InvalidParams);
  expect(unknown.message).toMatch(/colour/);
  // The code is named once, not once by the server and again by the client.
  expect(unknown.message).toMatch(/^MCP error -32602: (?!MCP error)/);
  const tooMany = await mcpError(client.callTool({ name: 'query_trades', arguments: { limit: 5000 } }));
  expect(tooMany.code).toBe(ErrorCode.InvalidParams);
  expect(tooMany.data).toMatchObject({ status: 422 });
  const missing = await mcpError(client.callTool({ name: 'get_portfolio', arguments: {} }));
  expect(missing.code).toBe(ErrorCode.InvalidParams);
  const noTool = await mcpError(client.callTool({ name: 'delete_everything', arguments: {} }));
  expect(noTool.code).toBe(ErrorCode.InvalidParams);
  expect(noTool.message).toBe('MCP error -32602: unknown tool "delete_everything"');
}

/** A tool result the API refused: `isError`, the route's detail as its text, its body in `_meta`. */
function refusalOf(result: Awaited<ReturnType<Client['callTool']>>) {
  expect(result.isError).toBe(true);
  const content = result.content as { type: string; text: string }[];
  const error = result._meta?.['dcledger/error'] as { detail: string } & Record<string, unknown>;
  expect(content).toEqual([{ type: 'text', text: error.detail }]);
  expect(result._meta?.['dcledger/credits']).toBe(0);
  return { text: content[0]?.text ?? '', error, status: result._meta?.['dcledger/status'] };
}

async function exerciseRefusals(makeClient: (key: string) => Promise<Client>, ctx: FixtureApp) {
  // No plan, no credits: the lookup (15 credits) is refused with 402, conflicts (Pro) with 403.
  const broke = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 0 });
  const client = await makeClient(broke.key.api_key);
  try {
    const payment = refusalOf(await client.callTool({ name: 'lookup', arguments: { q: 'Pelosi' } }));
    expect(payment.status).toBe(402);
    expect(payment.error).toMatchObject({ status: 402, credits_needed: 15, balance: 0 });
    expect(payment.text).toMatch(/credit/i);
    const tier = refusalOf(await client.callTool({ name: 'get_conflicts', arguments: { politician_id: 1 } }));
    expect(tier.status).toBe(403);
    expect(tier.error).toMatchObject({ status: 403, required_plan: 'pro' });
    expect(tier.text).toMatch(/pro/);
  } finally {
    await client.close();
  }
}

describe.skipIf(!realDataAvailable())('MCP server', () => {
  let ctx: FixtureApp;
  let baseUrl: string;

  beforeAll(async () => {
    ctx = await openFixtureApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    baseUrl = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function httpClient(key: string): Promise<Client> {
    const client = new Client({ name: 'dcledger-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { 'DC-API-Key': key } },
      }),
    );
    return client;
  }

  async function stdioClient(key: string): Promise<Client> {
    const env = cliEnv(ctx.store.config, { DCLEDGER_API_KEY: key });
    const client = new Client({ name: 'dcledger-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: cliArgs('mcp'),
        cwd: repoRoot,
        env,
        stderr: 'pipe',
      }),
    );
    return client;
  }

  it('streamable HTTP: lists the /v1/tools tools and calls each, charged as the REST endpoints', async () => {
    const client = await httpClient(ctx.key);
    try {
      expect(client.getServerVersion()?.name).toBe('dcledger');
      await exerciseTools(ctx, client, ctx.key);
    } finally {
      await client.close();
    }
    // Every tool once over HTTP: minutes on a loaded two-core machine.
  }, 240_000);

  it('streamable HTTP: 402 and 403 become tool results with isError and the detail', async () => {
    await exerciseRefusals(httpClient, ctx);
  });

  it('streamable HTTP: POST /mcp without a key is refused with 401 before any MCP exchange', async () => {
    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/key/i);
  });

  it('stdio (`dcledger mcp`): the same tools, in-process on the database, charged to DCLEDGER_API_KEY', async () => {
    const client = await stdioClient(ctx.key);
    try {
      await exerciseTools(ctx, client, ctx.key);
    } finally {
      await client.close();
    }
  });

  it('stdio (`dcledger mcp --url`): the same tools through a running server', async () => {
    const broke = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 0 });
    const env: Record<string, string> = { PATH: process.env.PATH ?? '', DCLEDGER_API_KEY: broke.key.api_key };
    const client = new Client({ name: 'dcledger-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: cliArgs('mcp', '--url', baseUrl),
        cwd: repoRoot,
        env,
        stderr: 'pipe',
      }),
    );
    try {
      const { body: doc } = await getJson<ToolsDoc>(ctx, '/v1/tools');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(
        doc.anthropic.map((tool) => tool.name),
      );
      const payment = refusalOf(await client.callTool({ name: 'lookup', arguments: { q: 'Pelosi' } }));
      expect(payment.status).toBe(402);
    } finally {
      await client.close();
    }
  });

  it('stdio: 402 and 403 become tool results with isError and the detail', async () => {
    await exerciseRefusals(stdioClient, ctx);
  });
});
