// The routes the app registered, with their schemas: what /credits/endpoints and /v1/tools describe.
import type { RouteOptions } from 'fastify';
import { isSessionRoute, routeKey } from '../accounts/price-table.js';

/** The tag of the probes (/healthz, /readyz): in /openapi.json, but neither listed nor a tool. */
export const OPERATIONS_TAG = 'operations';

export interface CatalogEntry {
  method: string;
  url: string;
  summary: string | undefined;
  description: string | undefined;
  querystring: Record<string, unknown> | undefined;
  params: Record<string, unknown> | undefined;
}

export class RouteCatalog {
  private readonly entries = new Map<string, CatalogEntry>();

  record(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    if ((schema as { hide?: boolean }).hide) return;
    if ((schema.tags as unknown[] | undefined)?.includes(OPERATIONS_TAG)) return;
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      // The account area is for people in a browser, not an API endpoint to list or to call as a tool.
      if (isSessionRoute(routeKey(method, route.url))) continue;
      this.entries.set(`${method} ${route.url}`, {
        method,
        url: route.url,
        summary: typeof schema.summary === 'string' ? schema.summary : undefined,
        description: typeof schema.description === 'string' ? schema.description : undefined,
        querystring: schema.querystring as Record<string, unknown> | undefined,
        params: schema.params as Record<string, unknown> | undefined,
      });
    }
  }

  get(key: string): CatalogEntry | undefined {
    return this.entries.get(key);
  }

  list(): CatalogEntry[] {
    return [...this.entries.values()].sort(
      (a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method),
    );
  }
}
