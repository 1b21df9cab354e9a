// CSV answers for every list endpoint: `Accept: text/csv` or `format=csv`. The answer is metered
// first, as JSON would be (the metering hook runs before this one), then streamed as CSV (a
// csv-stringify stream over the rows, so a 1,000-row page is never one big string): one row
// per list item, the columns being the fields of the route's item schema in schema order (so an
// empty list still has its header line); nested values are JSON text, null is empty. The list of an
// object answer is the price table's rows field (`trades` of /conflict) or named in OBJECT_LISTS.

import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { priceOf, routeKey } from '../../accounts/price-table.js';
import type { App } from '../types.js';
import { addRouteHook, routeMethods, type SyncOnSend } from './route-hooks.js';

/** Object answers that are lists with a header (their rows are not priced, so not in the price table). */
const OBJECT_LISTS: Readonly<Record<string, string>> = {
  'GET /alerts/log': 'deliveries',
  'GET /alerts/subscriptions': 'subscriptions',
  'GET /portfolio/:politician_id': 'holdings',
};

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, unknown>;
  items?: ObjectSchema;
}

/** Where a route's list lives in its answer and which columns it has, or undefined (not a list). */
export function listShape(
  routeId: string,
  responseSchema: unknown,
): { field: string | undefined; columns: string[] } | undefined {
  const schema = responseSchema as ObjectSchema | undefined;
  if (!schema) return undefined;
  if (schema.type === 'array' && schema.items?.properties) {
    return { field: undefined, columns: Object.keys(schema.items.properties) };
  }
  const field = priceOf(routeId)?.rowsField ?? OBJECT_LISTS[routeId];
  const items = field ? (schema.properties?.[field] as ObjectSchema | undefined)?.items : undefined;
  if (field && items?.properties) return { field, columns: Object.keys(items.properties) };
  return undefined;
}

export function wantsCsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  if (/\btext\/csv\b/i.test(accept)) return true;
  // `format` is read from the raw query: route schemas strip parameters they do not declare.
  const query = request.raw.url?.split('?')[1];
  return query !== undefined && new URLSearchParams(query).get('format') === 'csv';
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function recordOf(row: unknown, columns: readonly string[]): string[] {
  const record = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
  return columns.map((column) => cell(record[column]));
}

/** The CSV answer as a stream: the header line, then one line per row as the client reads. */
export function csvStream(rows: readonly unknown[], columns: string[]): Readable {
  function* records() {
    for (const row of rows) yield recordOf(row, columns);
  }
  return Readable.from(records()).pipe(stringify({ header: true, columns, bom: false }));
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The rows and columns of a CSV answer, set once its JSON answer is charged. */
    csvAnswer: { rows: readonly unknown[]; columns: string[] } | null;
  }
}

export function registerCsv(app: App): void {
  app.decorateRequest('csvAnswer', null);
  // Only list routes can answer CSV: the hooks are attached to those alone (route-hooks.ts).
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    const shapes = new Map<string, { field: string | undefined; columns: string[] }>();
    for (const method of routeMethods(route)) {
      const shape = listShape(routeKey(method, route.url), response?.[200] ?? response?.['200']);
      if (shape) shapes.set(method, shape);
    }
    if (shapes.size === 0) return;
    addRouteHook(route, 'preSerialization', csvAnswerOf(shapes));
    addRouteHook(route, 'onSend', sendCsv);
  });
}

// The JSON body is never built for a CSV answer: the serializer writes nothing and onSend
// replaces the payload with the stream.
const sendCsv: SyncOnSend = (request, reply, payload, done) => {
  const answer = request.csvAnswer;
  request.csvAnswer = null;
  // An error after the rows were known (the answer is then the JSON error) is never CSV.
  if (!answer || reply.statusCode >= 400) return done(null, payload);
  done(null, csvStream(answer.rows, answer.columns));
};

function csvAnswerOf(shapes: ReadonlyMap<string, { field: string | undefined; columns: string[] }>) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ) => {
    const shape = shapes.get(request.method);
    if (reply.statusCode >= 400 || !shape || !wantsCsv(request)) return done(null, payload);
    const rows = shape.field ? (payload as Record<string, unknown> | null)?.[shape.field] : payload;
    if (!Array.isArray(rows)) return done(null, payload);
    request.csvAnswer = { rows, columns: shape.columns };
    reply.type('text/csv; charset=utf-8');
    reply.serializer(() => '');
    done(null, payload);
  };
}
