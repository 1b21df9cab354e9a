// The MCP server: the tools of /v1/tools (same definitions) over the Model Context Protocol, each
// call made through the tool's REST route with the caller's key, so it is authenticated, gated and
// charged exactly as that endpoint is. A call the API refuses (no key, no credits, the wrong plan, an
// unknown member, a rate limit) is a tool result with `isError` and the route's detail, as the MCP
// specification asks of tool execution errors, so the model reads it; only a call that does not fit
// the tool (unknown tool, bad arguments) is a protocol error.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { quoted } from '../errors.js';
import { callTool, type ToolDefinition, type ToolTransport } from './tools.js';

export const MCP_SERVER_NAME = 'dcledger';

/** Refusals of the arguments rather than of the tool's work: protocol errors (InvalidParams). */
const PROTOCOL_STATUSES: ReadonlySet<number> = new Set([400, 422]);

/**
 * A protocol error sent as it is: the SDK's McpError puts "MCP error <code>: " in its message and
 * the client's McpError adds it again, so the message sent is the bare detail.
 */
export class ProtocolRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
  }
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
      throw new ProtocolRefusal(ErrorCode.InvalidParams, `unknown tool ${quoted(request.params.name)}`, {
        status: 400,
      });
    }
    const call = await callTool(tool, request.params.arguments ?? {}, options.transport);
    if (call.status >= 400) {
      const body = typeof call.result === 'object' && call.result !== null ? call.result : {};
      if (PROTOCOL_STATUSES.has(call.status))
        throw new ProtocolRefusal(ErrorCode.InvalidParams, detailOf(call.result), {
          ...body,
          status: call.status,
        });
      return {
        isError: true,
        content: [{ type: 'text', text: detailOf(call.result) }],
        _meta: {
          'dcledger/credits': call.credits,
          'dcledger/status': call.status,
          'dcledger/error': { ...body, status: call.status },
        },
      };
    }
    return {
      content: [{ type: 'text', text: JSON.stringify(call.result) }],
      _meta: { 'dcledger/credits': call.credits, 'dcledger/status': call.status },
    };
  });
  return server;
}
