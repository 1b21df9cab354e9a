// POST /mcp: the Model Context Protocol over streamable HTTP (stateless: one server per request,
// JSON answers). The request itself costs nothing; each tools/call is charged as its REST endpoint.
import { Type } from 'typebox';
import { toolDefinitions } from '../../../services/tools.js';
import { API_VERSION } from '../../plugins/openapi.js';
import type { RouteCatalog } from '../../route-catalog.js';
import { callerCredentials, injectToolTransport } from '../../tool-transport.js';
import type { App } from '../../types.js';

const JsonRpcMessage = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, ...)',
    examples: [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }],
  },
);

/**
 * The MCP SDK and the server built on it, loaded at the first call: most processes never answer
 * one, and the SDK (with its schema library) is among the largest modules a server would load.
 */
async function mcpModules() {
  const [sdk, mcp] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('../../../services/mcp.js'),
  ]);
  return {
    StreamableHTTPServerTransport: sdk.StreamableHTTPServerTransport,
    createMcpServer: mcp.createMcpServer,
  };
}

export function mcpRpcRoute(app: App, catalog: RouteCatalog): void {
  app.post(
    '/mcp',
    {
      schema: {
        operationId: 'mcp',
        tags: ['assistant'],
        summary: 'MCP server (streamable HTTP)',
        description:
          'The tools of /v1/tools over the Model Context Protocol. Send `Accept: application/json, text/event-stream`. ' +
          'Each tools/call is made with your key and charged as its REST endpoint; refusals are JSON-RPC errors ' +
          '(InvalidParams for bad arguments, -32010 unauthorized, -32011 payment required, -32012 forbidden, -32013 rate limited, -32014 not found).',
        body: JsonRpcMessage,
        response: { 200: JsonRpcMessage },
      },
    },
    async (request, reply) => {
      const { StreamableHTTPServerTransport, createMcpServer } = await mcpModules();
      const server = createMcpServer({
        version: API_VERSION,
        tools: toolDefinitions(catalog),
        transport: injectToolTransport(app, callerCredentials(request)),
      });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      // The MCP transport writes the answer itself; the headers set so far (request id, rate
      // limit, credits) go with it.
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
}
