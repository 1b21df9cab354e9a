// What every endpoint costs and which plan reaches it: the one table that drives metering, tier
// gating, GET /credits/endpoints and the x- extensions of /openapi.json. A route that is neither
// here nor public cannot be registered (buildApp fails), so none can slip through unmetered.

import type { Plan } from '../domain/plans.js';
import { EXECUTIVE_ROW_SOURCES } from '../domain/sources.js';

export type Tier = 'free' | 'core' | 'pro' | 'max';

export const TIER_PLAN: Record<Tier, Plan> = { free: 'none', core: 'core', pro: 'pro', max: 'max' };

/** How the rows of an answer are counted for per-row charges. */
export type RowCounting = 'none' | 'list';

export interface Price {
  tier: Tier;
  /** Credits per successful call. */
  base: number;
  /** Credits per returned row. */
  perRow: number;
  /** Credits per returned executive-branch row (trades or filings of OGE filers) instead of perRow. */
  perExecutiveRow: number;
  rows: RowCounting;
  /** Where the rows are: the answer itself (an array) or this field of it. */
  rowsField?: string;
}

const TRADE_DATA = { base: 15, perRow: 1, perExecutiveRow: 5, rows: 'list' } as const;
const LOOKUP = { base: 15, perRow: 0, perExecutiveRow: 0, rows: 'none' } as const;
const flat = (base: number) => ({ base, perRow: 0, perExecutiveRow: 0, rows: 'none' }) as const;

/** Keyed by "METHOD /path" with Fastify path syntax. */
export const PRICE_TABLE: Readonly<Record<string, Price>> = {
  'GET /trades': { tier: 'free', ...TRADE_DATA },
  'GET /trades/bulk-latest': { tier: 'pro', ...TRADE_DATA, rowsField: 'trades' },
  // The whole history in one file, a flat price instead of one credit per trade (~30,000); an
  // unchanged file (304) costs nothing.
  'GET /bulk/trades': { tier: 'pro', ...flat(2000) },
  'GET /politicians': { tier: 'free', ...LOOKUP },
  'GET /politicians/:id': { tier: 'free', ...LOOKUP },
  'GET /politicians/:id/trades': { tier: 'free', ...TRADE_DATA },
  'GET /tickers/top': { tier: 'free', ...flat(10) },
  'GET /tickers/:ticker/trades': { tier: 'free', ...TRADE_DATA },
  // A chart's series: one flat price, not per row (a year is ~250 closes, a decade ~2,500).
  'GET /tickers/:ticker/prices': { tier: 'free', ...flat(5) },
  'GET /feed/recent': { tier: 'free', ...TRADE_DATA },
  'GET /feed/live': { tier: 'core', ...TRADE_DATA },
  'GET /stats/summary': { tier: 'free', ...flat(5) },
  'GET /search': { tier: 'free', ...LOOKUP },
  'GET /v1/semantic-search': {
    tier: 'core',
    base: 20,
    perRow: 1,
    perExecutiveRow: 1,
    rows: 'list',
    rowsField: 'results',
  },
  'GET /credits/balance': { tier: 'free', ...flat(0) },
  'GET /filings': { tier: 'free', ...TRADE_DATA },
  'GET /filings/:id': { tier: 'free', ...LOOKUP },
  'GET /lobbying': { tier: 'core', base: 10, perRow: 1, perExecutiveRow: 1, rows: 'list' },
  'GET /lobbying/:id': { tier: 'core', ...flat(5) },
  'GET /contracts': { tier: 'core', base: 10, perRow: 1, perExecutiveRow: 1, rows: 'list' },
  'GET /contracts/:id': { tier: 'core', ...flat(5) },
  // Legislation and campaign finance: lists charge per row like trades, details are lookups.
  'GET /bills': { tier: 'free', ...TRADE_DATA },
  'GET /bills/:id': { tier: 'free', ...LOOKUP },
  'GET /votes/:id': { tier: 'free', ...LOOKUP },
  'GET /politicians/:id/votes': { tier: 'free', ...TRADE_DATA },
  'GET /politicians/:id/campaign-finance': { tier: 'core', ...flat(25) },
  'GET /committees': { tier: 'free', ...LOOKUP },
  'GET /committees/:id': { tier: 'free', ...LOOKUP },
  'GET /portfolio/:politician_id': { tier: 'core', base: 25, perRow: 0, perExecutiveRow: 0, rows: 'none' },
  'GET /conflict/:politician_id': { tier: 'pro', ...TRADE_DATA, base: 25, rowsField: 'trades' },
  // Follow the money: overlap charges per hit like trade data, the dossier is one lookup.
  'GET /overlap': { tier: 'pro', ...TRADE_DATA, base: 25, rowsField: 'hits' },
  'GET /companies/:ticker': { tier: 'pro', ...flat(50) },
  // Analytics over the whole trade table: Pro, a base like /conflict for the work, plus
  // one credit per cluster or hit returned (each carries its members' trades as evidence).
  'GET /clusters/recent': {
    tier: 'pro',
    base: 25,
    perRow: 1,
    perExecutiveRow: 1,
    rows: 'list',
    rowsField: 'clusters',
  },
  'GET /legislation/suspicious-timing': {
    tier: 'pro',
    base: 25,
    perRow: 1,
    perExecutiveRow: 1,
    rows: 'list',
    rowsField: 'hits',
  },
  'GET /portfolio/:politician_id/positions': {
    tier: 'pro',
    base: 50,
    perRow: 0,
    perExecutiveRow: 0,
    rows: 'none',
  },
  // SEC insider and 13D/G data: a Core feature (paid data joined to members' trades), priced like
  // trade data per row; single items like lookups.
  'GET /insiders/trades': { tier: 'core', ...TRADE_DATA },
  'GET /insiders/trades/:id': { tier: 'core', ...LOOKUP },
  'GET /tickers/:ticker/insiders': { tier: 'core', ...TRADE_DATA },
  'GET /whales': { tier: 'core', ...TRADE_DATA },
  'GET /whales/:id': { tier: 'core', ...LOOKUP },
  // Webhooks are included with Pro and Max: managing subscriptions and reading the log cost no
  // credits, and deliveries are never charged (the interface: "no per-call credits").
  'GET /alerts/subscriptions': { tier: 'pro', ...flat(0) },
  'POST /alerts/subscriptions': { tier: 'pro', ...flat(0) },
  'DELETE /alerts/subscriptions/:id': { tier: 'pro', ...flat(0) },
  'POST /alerts/subscriptions/:id/test': { tier: 'pro', ...flat(0) },
  'POST /alerts/subscriptions/:id/rotate-secret': { tier: 'pro', ...flat(0) },
  'GET /alerts/log': { tier: 'pro', ...flat(0) },
  // The MCP endpoint itself is free; each tools/call inside it is charged as its REST endpoint.
  'POST /mcp': { tier: 'free', ...flat(0) },
  // The assistant: a base of its own for planning and writing the answer, plus every tool call it
  // makes, charged separately as that endpoint (visible in the answer's tool_calls).
  'GET /chad/chat': { tier: 'free', ...flat(5) },
  'POST /chad/chat': { tier: 'free', ...flat(5) },
};

/** Routes anyone may call without a key. Paths ending in `*` are prefixes. */
export const PUBLIC_ROUTES: readonly string[] = [
  'GET /v1/tools',
  'GET /credits/endpoints',
  'GET /openapi.json',
  'GET /alerts/webhook-events',
  'GET /alerts/webhooks/guide',
  'GET /docs*',
  // Operations (docs/operations.md): probes and Prometheus scrapes are never metered; /metrics may
  // need the operator's bearer token (DCLEDGER_METRICS_TOKEN).
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  // The data-quality audit (docs/data-quality.md): public, served from the stored report.
  'GET /quality',
  // CORS preflights (only registered when DCLEDGER_CORS_ORIGINS lists origins).
  'OPTIONS *',
];

/**
 * The account area (JSON under /account, pages under /ui, the landing and status pages): people
 * signed in with a session cookie manage their account here. These routes are never metered and
 * take no API key; each one checks the session (and the CSRF token on every POST) itself, in
 * src/http/plugins/session.ts. They are not API endpoints: /credits/endpoints and /v1/tools omit them.
 */
export const SESSION_ROUTES: readonly string[] = [
  'GET /',
  'GET /status',
  'GET /account',
  'GET /account/*',
  'POST /account/*',
  'GET /ui*',
  'POST /ui*',
  // Browsers ask for it on pages that name no icon; it points at /ui/assets/favicon.svg.
  'GET /favicon.ico',
];

export function isSessionRoute(key: string): boolean {
  return SESSION_ROUTES.some((route) =>
    route.endsWith('*') ? key.startsWith(route.slice(0, -1)) : key === route,
  );
}

export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

export function isPublicRoute(key: string): boolean {
  if (isSessionRoute(key)) return true;
  return PUBLIC_ROUTES.some((route) =>
    route.endsWith('*') ? key.startsWith(route.slice(0, -1)) : key === route,
  );
}

export function priceOf(key: string): Price | undefined {
  return PRICE_TABLE[key];
}

/** "/politicians/:id" -> "/politicians/{id}" as OpenAPI and clients write it. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

export interface RowCount {
  rows: number;
  executiveRows: number;
}

function isExecutive(row: unknown): boolean {
  if (typeof row !== 'object' || row === null) return false;
  const record = row as Record<string, unknown>;
  return (
    record.chamber === 'Executive' ||
    (typeof record.source === 'string' &&
      (EXECUTIVE_ROW_SOURCES as readonly string[]).includes(record.source))
  );
}

/** Counts the rows of an answer the way the price says. */
export function countRows(price: Price, payload: unknown): RowCount {
  if (price.rows === 'none') return { rows: 0, executiveRows: 0 };
  const list = price.rowsField ? (payload as Record<string, unknown> | null)?.[price.rowsField] : payload;
  if (!Array.isArray(list)) return { rows: 0, executiveRows: 0 };
  let executiveRows = 0;
  for (const row of list) if (isExecutive(row)) executiveRows += 1;
  return { rows: list.length - executiveRows, executiveRows };
}

export function costOf(price: Price, count: RowCount): number {
  return price.base + count.rows * price.perRow + count.executiveRows * price.perExecutiveRow;
}

/**
 * costOf's terms for a page whose rows the database counts as it builds it (base + rows × perRow +
 * executive rows × perExecutiveRow): a route whose rows are not counted costs its base.
 */
export function pagePriceTerms(price: Price): { base: number; perRow: number; perExecutiveRow: number } {
  if (price.rows === 'none') return { base: price.base, perRow: 0, perExecutiveRow: 0 };
  return { base: price.base, perRow: price.perRow, perExecutiveRow: price.perExecutiveRow };
}
