// `dcledger mcp`: the MCP server over stdio for desktop assistants. Tools are those of /v1/tools,
// called with DCLEDGER_API_KEY and charged to that key: in-process on the configured database, or
// against a running server with --url. stdout carries the protocol, so nothing else is printed there.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { API_VERSION, buildApp, injectToolTransport } from '../app.js';
import { parseBaseUrl } from '../config/read.js';
import { loadConfig } from '../config.js';
import { createMcpServer } from '../services/mcp.js';
import {
  definitionsFromDocument,
  httpToolTransport,
  type ToolDefinition,
  type ToolsDocument,
  type ToolTransport,
} from '../services/tools.js';
import { openMigratedStore } from '../storage/open.js';
import { CommandError } from './output.js';

interface Backend {
  tools: ToolDefinition[];
  transport: ToolTransport;
  close(): Promise<void>;
}

async function remoteBackend(url: string, apiKey: string): Promise<Backend> {
  const base = parseBaseUrl(url, '--url');
  const response = await fetch(`${base}/v1/tools`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new CommandError(`GET ${base}/v1/tools answered ${response.status}`);
  const document = (await response.json()) as ToolsDocument;
  return {
    tools: definitionsFromDocument(document),
    transport: httpToolTransport(base, apiKey),
    close: async () => {},
  };
}

async function localBackend(apiKey: string): Promise<Backend> {
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  const app = await buildApp(
    { db: store.db, dialect: store.dialect, clock: () => new Date(), publicUrl: config.publicUrl },
    { logger: false },
  );
  const document = (await app.inject({ method: 'GET', url: '/v1/tools' })).json() as ToolsDocument;
  return {
    tools: definitionsFromDocument(document),
    transport: injectToolTransport(app, { 'dc-api-key': apiKey }),
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

export async function mcpCommand(options: { url?: string }): Promise<void> {
  const apiKey = loadConfig().apiKey;
  if (!apiKey) throw new CommandError('set DCLEDGER_API_KEY to the key the tools are called with', 2);
  const backend = options.url ? await remoteBackend(options.url, apiKey) : await localBackend(apiKey);
  const server = createMcpServer({
    version: API_VERSION,
    tools: backend.tools,
    transport: backend.transport,
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  // Desktop assistants end the server by closing its stdin.
  process.stdin.once('end', () => void server.close());
  await closed;
  await backend.close();
}
