// CSV answers for every list endpoint: `Accept: text/csv` or `format=csv`. The answer is metered
// first, as JSON would be (the metering hook runs before this one), then written as CSV: one row
// per list item, the columns being the fields of the route's item schema in schema order (so an
// empty list still has its header line); nested values are JSON text, null is empty. The list of an
// object answer is the price table's rows field (`trades` of /conflict) or named in OBJECT_LISTS.

import { stringify } from 'csv-stringify/sync';
import type { FastifyRequest } from 'fastify';
import { priceOf } from '../../accounts/price-table.js';
import type { App } from '../types.js';

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

export function toCsv(rows: unknown[], columns: string[]): string {
  const records = rows.map((row) => {
    const record = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    return columns.map((column) => cell(record[column]));
  });
  return stringify(records, { header: true, columns, bom: false });
}

export function registerCsv(app: App): void {
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode >= 400 || !wantsCsv(request)) return payload;
    const response = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
    const shape = listShape(
      request.routeId || `${request.method} ${request.routeOptions.url}`,
      response?.[200] ?? response?.['200'],
    );
    if (!shape) return payload;
    const rows = shape.field ? (payload as Record<string, unknown> | null)?.[shape.field] : payload;
    if (!Array.isArray(rows)) return payload;
    const csv = toCsv(rows, shape.columns);
    reply.type('text/csv; charset=utf-8');
    reply.serializer(() => csv);
    return payload;
  });
}
