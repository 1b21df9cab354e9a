// Paging metadata in headers, as GitHub does: list answers keep their bodies (clients rely on the
// arrays) and add `Link: <...>; rel="next"` while a full page came back, plus rel="prev" and
// rel="first" after the first page. A paged list is any route with `limit` and `offset` query
// parameters whose answer is a list (the CSV plugin's listShape), so new routes are covered
// without edits. The header is built from the page just served: no count query, nothing on the
// hot path but a length check. There is no total-count header because a total costs a COUNT(*)
// over the filtered set on every call (the trade list's hot path); clients page until no `next`.
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { routeKey } from '../../accounts/price-table.js';
import { serviceBaseUrl } from '../public-url.js';
import type { App, AppDeps } from '../types.js';
import { listShape, rowsOfAnswer } from './csv.js';
import { addRouteHook, routeMethods, type SyncOnSend } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The rows of a page a handler sent as ready JSON text (the trade list's hot path): the Link
     * header is then built from this count, since no object passes through serialization.
     */
    pageRows: number | null;
  }
}

/** The operation extension marking a paged list in /openapi.json (and the Link header on its 200). */
export const PAGING_EXTENSION = 'x-paging';

interface PagedRoute {
  /** Where the rows are in the answer: the answer itself, or this field. */
  field: string | undefined;
}

function queryProperties(schema: FastifySchema | undefined): Record<string, unknown> {
  const querystring = schema?.querystring as { properties?: Record<string, unknown> } | undefined;
  return querystring?.properties ?? {};
}

/** The paged-list facts of a route, or undefined when it is not one. */
export function pagedRoute(key: string, schema: FastifySchema | undefined): PagedRoute | undefined {
  const query = queryProperties(schema);
  if (!('limit' in query) || !('offset' in query)) return undefined;
  const response = schema?.response as Record<string, unknown> | undefined;
  const shape = listShape(key, response?.[200] ?? response?.['200']);
  return shape ? { field: shape.field } : undefined;
}

/** The Link header value for a page of `rows` rows at `offset` of size `limit` under `url` (path?query). */
export function linkHeader(
  baseUrl: string,
  url: string,
  offset: number,
  limit: number,
  rows: number,
): string {
  const [path, query] = url.split('?');
  const link = (pageOffset: number, rel: string) => {
    const params = new URLSearchParams(query ?? '');
    params.set('limit', String(limit));
    params.set('offset', String(pageOffset));
    return `<${baseUrl}${path}?${params.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (rows >= limit) links.push(link(offset + limit, 'next'));
  if (offset > 0) {
    links.push(link(Math.max(0, offset - limit), 'prev'));
    links.push(link(0, 'first'));
  }
  return links.join(', ');
}

export function registerPaging(app: App, deps: Pick<AppDeps, 'publicUrl'>): void {
  // The links' base: the public URL, else the address the server listens on, which is fixed once
  // it listens; computed once then, not per answer.
  let base: string | undefined;
  const baseUrl = () => {
    if (base !== undefined) return base;
    const address = app.server.address();
    const url = serviceBaseUrl(deps.publicUrl, address).replace(/\/+$/, '');
    if (deps.publicUrl !== undefined || address !== null) base = url;
    return url;
  };
  const setLink = (request: FastifyRequest, reply: FastifyReply, rows: number) => {
    const { limit, offset } = (request.query ?? {}) as { limit?: unknown; offset?: unknown };
    if (typeof limit !== 'number' || typeof offset !== 'number') return;
    const value = linkHeader(baseUrl(), request.raw.url ?? request.url, offset, limit, rows);
    if (value) reply.header('Link', value);
  };

  app.decorateRequest('pageRows', null);
  // The hooks are attached to the paged lists alone (route-hooks.ts): other routes never run them.
  app.addHook('onRoute', (route) => {
    if (!routeMethods(route).includes('GET')) return;
    const facts = pagedRoute(routeKey('GET', route.url), route.schema);
    if (!facts || !route.schema) return;
    route.schema = {
      ...(route.schema as Record<string, unknown>),
      [PAGING_EXTENSION]: {
        style: 'offset',
        parameters: ['limit', 'offset'],
        next: 'Link header, rel="next", present while a full page came back',
      },
    } as FastifySchema;
    addRouteHook(
      route,
      'preSerialization',
      (
        request: FastifyRequest,
        reply: FastifyReply,
        payload: unknown,
        done: (error: Error | null, payload?: unknown) => void,
      ) => {
        if (reply.statusCode === 200 && request.method === 'GET') {
          const rows = rowsOfAnswer(facts, payload);
          if (rows) setLink(request, reply, rows.length);
        }
        done(null, payload);
      },
    );
    // A page sent as ready JSON text skips serialization: its handler gave the row count.
    const linkOfReadyText: SyncOnSend = (request, reply, payload, done) => {
      if (
        request.pageRows !== null &&
        reply.statusCode === 200 &&
        request.method === 'GET' &&
        !reply.hasHeader('Link')
      )
        setLink(request, reply, request.pageRows);
      done(null, payload);
    };
    addRouteHook(route, 'onSend', linkOfReadyText);
  });
}
