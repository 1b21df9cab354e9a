// The LLM tools of the API, in one place: /v1/tools publishes them, the MCP server exposes them and
// the assistant (/chad/chat) calls them. A tool is a GET route; its input schema is built from that
// route's own parameter schemas, so a tool accepts exactly what the route accepts.

import { openApiPath } from '../accounts/price-table.js';
import { quoted } from '../errors.js';

interface ToolSpec {
  name: string;
  method: 'GET';
  /** Fastify path syntax, as in the price table. */
  url: string;
  description: string;
}

/**
 * The records linked to members' trades: an agent reaches them as tools too. Each is
 * a GET route, charged and gated as that route is (the SEC, lobbying and contract lists need the
 * core plan). TOOLS lists them after the interface's five.
 */
export const RECORD_TOOLS: readonly ToolSpec[] = [
  {
    name: 'insider_trades',
    method: 'GET',
    url: '/insiders/trades',
    description:
      'SEC Form 3/4/5 transactions by company insiders (officers, directors, 10% owners), filtered by ticker, issuer cik, insider name, transaction code, date window and minimum value; has_politician_overlap=true keeps lines where a member traded the same stock within 30 days.',
  },
  {
    name: 'whale_filings',
    method: 'GET',
    url: '/whales',
    description:
      'Schedule 13D/13G beneficial-ownership statements of investors holding 5% or more of a company, filtered by ticker, filer, form, minimum percent and date window.',
  },
  {
    name: 'lobbying_filings',
    method: 'GET',
    url: '/lobbying',
    description:
      'Federal lobbying (Senate LDA) filings: who lobbied for which client on which issues and for how much, filtered by client, registrant, ticker of the client company, issue code, year and period.',
  },
  {
    name: 'contract_awards',
    method: 'GET',
    url: '/contracts',
    description:
      'Federal contract awards (USAspending) to companies, filtered by ticker of the recipient, recipient name, awarding agency, date window and minimum amount.',
  },
  {
    name: 'search_bills',
    method: 'GET',
    url: '/bills',
    description:
      'Bills and resolutions, latest action first, filtered by congress, bill type, sponsor, policy area, subject, committee, introduction dates or free text (q).',
  },
  {
    name: 'get_bill',
    method: 'GET',
    url: '/bills/:id',
    description:
      'One bill (id like hr21-117: type, number, congress): sponsors, cosponsors, committees, every action, subjects, related bills and roll-call votes.',
  },
  {
    name: 'member_votes',
    method: 'GET',
    url: '/politicians/:id/votes',
    description:
      "A member's roll-call votes, newest first, filtered by position (Yea, Nay...), bill and date window. id is the politician_id or slug from lookup.",
  },
  {
    name: 'campaign_finance',
    method: 'GET',
    url: '/politicians/:id/campaign-finance',
    description:
      "A member's FEC campaign finance for a cycle: totals, top donor employers and industries, and PAC money by company. id is the politician_id or slug from lookup.",
  },
];

/**
 * The five tools of the interface, in its order, then the record tools, then the follow-the-money
 * answers (docs/analytics-links.md).
 */
/** The five tools of the interface, in its order, then the analytics an agent reaches for. */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'lookup',
    method: 'GET',
    url: '/search',
    description:
      'Find politicians, tickers and bills by name, ticker symbol, bill number or prefix. Use it to turn a name into a politician_id or slug.',
  },
  {
    name: 'query_trades',
    method: 'GET',
    url: '/trades',
    description:
      'Query disclosed stock trades of members of Congress and executive-branch officials, filtered by ticker, member, party, chamber, state, trade type, asset type, sector and disclosure date window.',
  },
  {
    name: 'semantic_search',
    method: 'GET',
    url: '/v1/semantic-search',
    description:
      'Search members, stocks, trades, bills, filings, insider trades, 13D/G positions, lobbying filings and contract awards by meaning with a free-text question (full text and embeddings, fused).',
  },
  {
    name: 'get_portfolio',
    method: 'GET',
    url: '/portfolio/:politician_id',
    description: "A member's holdings reconstructed from their disclosed trades.",
  },
  {
    name: 'get_conflicts',
    method: 'GET',
    url: '/conflict/:politician_id',
    description: "Trades in sectors overseen by the member's committees (potential conflicts of interest).",
  },
  ...RECORD_TOOLS,
  {
    name: 'find_overlap',
    method: 'GET',
    url: '/overlap',
    description:
      "Members' trades in companies that lobbied their committees, won contracts from agencies those committees oversee, or whose PAC gave to their campaign, within window_days of the trade; each with the lobbying filings, contracts, FEC records and committee seats that link it. Use date_from/date_to for history.",
  },
  {
    name: 'company_dossier',
    method: 'GET',
    url: '/companies/:ticker',
    description:
      "Everything about one company by ticker: members' trades and net direction, insider transactions, 13D/G stakes, lobbying spend and issues, federal contracts, PAC money to members, bills touching it, and the members on the committees overseeing it.",
  },
  {
    name: 'find_trading_clusters',
    method: 'GET',
    url: '/clusters/recent',
    description:
      'Clusters of several members trading the same ticker in the same direction within a few days (default 3 members, 7 days), each with the members, their trades and filings, amounts, party mix and shared committees.',
  },
  {
    name: 'find_legislation_timing',
    method: 'GET',
    url: '/legislation/suspicious-timing',
    description:
      "Trades made shortly before (default 30 days) a committee action or roll call on a bill touching the company's sector or naming it, by a member on that committee or voting on it; each with the action, the member's role and the later price move.",
  },
];

/**
 * Tools the assistant may call beyond the interface's five: aggregate answers no filter of the
 * five gives (the assistant never counts rows itself, it cites what a route computed), and who
 * holds an office (a leadership role, a committee's chair or ranking member), which a name lookup
 * cannot say.
 */
export const ASSISTANT_EXTRA_TOOLS: readonly ToolSpec[] = [
  {
    name: 'top_tickers',
    method: 'GET',
    url: '/tickers/top',
    description: 'Most-traded tickers by number of disclosed trades in a window of days, most first.',
  },
  {
    name: 'find_members',
    method: 'GET',
    url: '/politicians',
    description:
      'Members by chamber, party, state, or a leadership role held on a day (role: "Speaker of the House", "Senate Minority Whip"; role_date; role_former for who held it before).',
  },
  {
    name: 'list_committees',
    method: 'GET',
    url: '/committees',
    description: 'Congressional committees by chamber and words of their name, with their thomas ids.',
  },
  {
    name: 'get_committee',
    method: 'GET',
    url: '/committees/:id',
    description:
      "One committee's members with their titles (Chair, Ranking Member) and sides, now or on a date.",
  },
];

/** What a tool needs from a registered route: its parameter schemas (the http route catalog fits). */
export interface ToolRouteSchemas {
  get(
    key: string,
  ):
    | { querystring: Record<string, unknown> | undefined; params: Record<string, unknown> | undefined }
    | undefined;
}

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
}

export interface ToolDefinition {
  name: string;
  description: string;
  method: 'GET';
  /** OpenAPI path syntax: /portfolio/{politician_id}. */
  path: string;
  pathParams: string[];
  inputSchema: JsonSchemaObject;
}

function plain(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema ?? {})) as Record<string, unknown>;
}

/** Path and query parameters of a route as one JSON Schema object. */
export function inputSchemaOf(route: {
  querystring: Record<string, unknown> | undefined;
  params: Record<string, unknown> | undefined;
}): JsonSchemaObject {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const source of [route.params, route.querystring]) {
    const schema = plain(source);
    const props = (schema.properties ?? {}) as Record<string, unknown>;
    Object.assign(properties, props);
    // A parameter with a default is optional to a caller even though the route's schema lists it.
    for (const name of (schema.required ?? []) as string[]) {
      const property = props[name] as { default?: unknown } | undefined;
      if (property?.default === undefined && !required.includes(name)) required.push(name);
    }
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] as string);
}

/** The tools whose routes are registered, with their input schemas. */
export function toolDefinitions(
  routes: ToolRouteSchemas,
  specs: readonly ToolSpec[] = TOOLS,
): ToolDefinition[] {
  return specs.flatMap((tool) => {
    const route = routes.get(`${tool.method} ${tool.url}`);
    if (!route) return [];
    return [
      {
        name: tool.name,
        description: tool.description,
        method: tool.method,
        path: openApiPath(tool.url),
        pathParams: pathParams(tool.url),
        inputSchema: inputSchemaOf(route),
      },
    ];
  });
}

export interface ToolsDocument {
  base_url: string;
  auth: { header: string; key_prefix: string; billing: string };
  routing: Record<string, { method: string; path: string; path_params?: string[] }>;
  anthropic: { name: string; description: string; input_schema: JsonSchemaObject }[];
  openai: {
    type: 'function';
    function: { name: string; description: string; parameters: JsonSchemaObject };
  }[];
}

/** GET /v1/tools. */
export function toolsDocument(routes: ToolRouteSchemas, baseUrl: string): ToolsDocument {
  const definitions = toolDefinitions(routes);
  const routing: ToolsDocument['routing'] = {};
  for (const tool of definitions) {
    routing[tool.name] = {
      method: tool.method,
      path: tool.path,
      ...(tool.pathParams.length ? { path_params: tool.pathParams } : {}),
    };
  }
  return {
    base_url: baseUrl,
    auth: {
      header: 'DC-API-Key',
      key_prefix: 'dc_',
      billing:
        'Every call is metered in credits: the endpoint base charge plus a per-row charge (trade data: 15 + 1 per row, executive-branch rows 5 each). Failed calls are free. Prices: GET /credits/endpoints.',
    },
    routing,
    anthropic: definitions.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    })),
    openai: definitions.map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    })),
  };
}

/** The definitions back from a /v1/tools document (a remote server's, for `dcledger mcp --url`). */
export function definitionsFromDocument(document: ToolsDocument): ToolDefinition[] {
  return document.anthropic.flatMap((tool) => {
    const route = document.routing[tool.name];
    if (route?.method !== 'GET') return [];
    return [
      {
        name: tool.name,
        description: tool.description,
        method: 'GET' as const,
        path: route.path,
        pathParams: route.path_params ?? [],
        inputSchema: tool.input_schema,
      },
    ];
  });
}

/** One HTTP answer of the API, however it was reached (in-process or over the network). */
export interface ToolResponse {
  status: number;
  body: unknown;
  /** X-Credits-Charged of the answer (0 when absent, e.g. a refused call). */
  creditsCharged: number;
}

/** Sends a GET with the caller's key: the call is authenticated and metered as any REST call. */
export type ToolTransport = (request: { method: 'GET'; url: string }) => Promise<ToolResponse>;

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** HTTP status of the route's answer (400 when the arguments never reached it). */
  status: number;
  credits: number;
  /** The route's answer: its data, or `{detail}` when it refused. */
  result: unknown;
}

export class ToolArgumentError extends Error {}

function argumentText(name: string, value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => argumentText(name, item)).join(',');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ToolArgumentError(`${name}: must be a string, number, boolean or a list of them`);
}

/** The URL a tool call requests; refuses unknown and missing arguments as the schema says. */
export function toolUrl(tool: ToolDefinition, args: Record<string, unknown>): string {
  for (const name of Object.keys(args)) {
    if (!(name in tool.inputSchema.properties)) {
      throw new ToolArgumentError(`${quoted(name)}: unknown argument of ${tool.name}`);
    }
  }
  for (const name of tool.inputSchema.required) {
    if (args[name] === undefined || args[name] === null || args[name] === '') {
      throw new ToolArgumentError(`${name}: required by ${tool.name}`);
    }
  }
  let path = tool.path;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    const text = argumentText(name, value);
    if (tool.pathParams.includes(name)) path = path.replace(`{${name}}`, encodeURIComponent(text));
    else query.set(name, text);
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** Calls a tool through its route; a refusal is an answer (status and `{detail}`), not a throw. */
export async function callTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  transport: ToolTransport,
): Promise<ToolCall> {
  let url: string;
  try {
    url = toolUrl(tool, args);
  } catch (error) {
    if (!(error instanceof ToolArgumentError)) throw error;
    return { name: tool.name, arguments: args, status: 400, credits: 0, result: { detail: error.message } };
  }
  const response = await transport({ method: 'GET', url });
  return {
    name: tool.name,
    arguments: args,
    status: response.status,
    credits: response.status < 400 ? response.creditsCharged : 0,
    result: response.body,
  };
}

/** A transport over the network to a dcledger server (for `dcledger mcp --url`). */
export function httpToolTransport(baseUrl: string, apiKey: string): ToolTransport {
  const base = baseUrl.replace(/\/+$/, '');
  return async ({ method, url }) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { 'DC-API-Key': apiKey, accept: 'application/json' },
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = { detail: text.slice(0, 500) };
    }
    return {
      status: response.status,
      body,
      creditsCharged: Number(response.headers.get('x-credits-charged') ?? 0) || 0,
    };
  };
}
