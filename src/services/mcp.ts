// The MCP server: the tools of /v1/tools (same definitions) over the Model Context Protocol, each
// call made through the tool's REST route with the caller's key, so it is authenticated, gated and
// charged exactly as that endpoint is. Refusals become MCP errors with the route's status and detail.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { quoted } from '../errors.js';
import { callTool, type ToolDefinition, type ToolTransport } from './tools.js';

export const MCP_SERVER_NAME = 'dcledger';

/**
 * JSON-RPC error codes for the API's refusals (server-defined codes live in -32000..-32099; -32000
 * and -32001 are taken by the SDK). Bad arguments are the protocol's own InvalidParams.
 */
export const MCP_ERROR_CODES: Readonly<Record<number, number>> = {
  400: ErrorCode.InvalidParams,
  422: ErrorCode.InvalidParams,
  401: -32010,
  402: -32011,
  403: -32012,
  404: -32014,
  429: -32013,
};

function mcpCodeOf(status: number): number {
  return MCP_ERROR_CODES[status] ?? ErrorCode.InternalError;
}

function detailOf(result: unknown): string {
  if (typeof result === 'object' && result !== null && 'detail' in result) {
    const detail = (result as { detail: unknown }).detail;
    if (typeof detail === 'string') return detail;
  }
  return 'the call was refused';
}

export interface McpServerOptions {
  version: string;
  tools: readonly ToolDefinition[];
  transport: ToolTransport;
}

/** A server for one connection (stdio) or one request (stateless streamable HTTP). */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'US congressional and executive-branch stock-trade disclosures. Use lookup to turn a name into a politician_id, then query_trades, get_portfolio or get_conflicts; the record tools (insider_trades, whale_filings, lobbying_filings, contract_awards, search_bills, get_bill, member_votes, campaign_finance) reach the records linked to those trades. Every call is charged in credits as its REST endpoint is.',
    },
  );
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `unknown tool ${quoted(request.params.name)}`, {
        status: 400,
      });
    }
    const call = await callTool(tool, request.params.arguments ?? {}, options.transport);
    if (call.status >= 400) {
      const body = typeof call.result === 'object' && call.result !== null ? call.result : {};
      throw new McpError(mcpCodeOf(call.status), detailOf(call.result), { ...body, status: call.status });
    }
    return {
      content: [{ type: 'text', text: JSON.stringify(call.result) }],
      _meta: { 'dcledger/credits': call.credits, 'dcledger/status': call.status },
    };
  });
  return server;
}
