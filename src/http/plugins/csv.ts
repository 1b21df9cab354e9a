// CSV answers for every list endpoint: `Accept: text/csv` or `format=csv`. The answer is metered
// first, as JSON would be (the metering hook runs before this one), then streamed as CSV (a
// csv-stringify stream over the rows, so a 1,000-row page is never one big string): one row
// per list item, the columns being the fields of the route's item schema in schema order (so an
// empty list still has its header line); nested values are JSON text, null is empty, and a text
// cell a spreadsheet would run as a formula is neutralised (domain/csv-cell.ts). The list of an
// object answer is the price table's rows field (`trades` of /conflict) or named in OBJECT_LISTS.
//
// The answer's type is negotiated: `format` (json or csv; anything else is a 422, the parameter
// being in every list's query schema) decides, else the `Accept` header; an Accept that names
// nothing the route answers (`Accept: application/xml`) is a 406 naming what it does answer.

import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { priceOf, routeKey } from '../../accounts/price-table.js';
import { csvCell } from '../../domain/csv-cell.js';
import { ApiError } from '../../errors.js';
import type { App } from '../types.js';
import { addRouteHook, routeMethods, type SyncOnSend } from './route-hooks.js';

/** Object answers that are lists with a header (their rows are not priced, so not in the price table). */
const OBJECT_LISTS: Readonly<Record<string, string>> = {
  'GET /alerts/log': 'deliveries',
  'GET /alerts/subscriptions': 'subscriptions',
  'GET /portfolio/:politician_id': 'holdings',
  // An array, or with `search` an object whose `politicians` are the list.
  'GET /politicians': 'politicians',
};

interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, unknown>;
  items?: ObjectSchema;
  anyOf?: ObjectSchema[];
}

export interface ListShape {
  /** The field of an object answer holding the rows (an array answer is the rows itself). */
  field: string | undefined;
  columns: string[];
}

/** Where a route's list lives in its answer and which columns it has, or undefined (not a list). */
export function listShape(routeId: string, responseSchema: unknown): ListShape | undefined {
  const schema = responseSchema as ObjectSchema | undefined;
  if (!schema) return undefined;
  if (schema.type === 'array' && schema.items?.properties) {
    return { field: undefined, columns: Object.keys(schema.items.properties) };
  }
  const field = priceOf(routeId)?.rowsField ?? OBJECT_LISTS[routeId];
  // A union of the plain list and an object holding it (GET /politicians with and without search).
  if (schema.anyOf) {
    const shapes = schema.anyOf.map((variant) => listShape(routeId, variant));
    const columns = shapes.find((shape) => shape !== undefined)?.columns;
    if (columns && shapes.every((shape) => shape?.columns.join() === columns.join()))
      return { field, columns };
    return undefined;
  }
  const items = field ? (schema.properties?.[field] as ObjectSchema | undefined)?.items : undefined;
  if (field && items?.properties) return { field, columns: Object.keys(items.properties) };
  return undefined;
}

/** The rows of a list answer: the answer itself, or its list field. */
export function rowsOfAnswer(shape: Pick<ListShape, 'field'>, payload: unknown): unknown[] | undefined {
  if (Array.isArray(payload)) return payload;
  const rows = shape.field ? (payload as Record<string, unknown> | null)?.[shape.field] : undefined;
  return Array.isArray(rows) ? rows : undefined;
}

export const JSON_TYPE = 'application/json';
export const CSV_TYPE = 'text/csv';
/** The values of the `format` parameter of a list. */
export const FORMATS = ['json', 'csv'] as const;

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

/** The media ranges of an Accept header, with their q values (a malformed q counts as 1). */
export function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  accept.split(',').forEach((part, order) => {
    const [range = '', ...parameters] = part.split(';');
    const [type, subtype] = range.trim().toLowerCase().split('/');
    if (!type || !subtype) return;
    let q = 1;
    for (const parameter of parameters) {
      const [name, value] = parameter.split('=').map((text) => text.trim());
      if (name?.toLowerCase() === 'q' && value !== undefined && /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value))
        q = Number(value);
    }
    ranges.push({ type, subtype, q, order });
  });
  return ranges;
}

/**
 * The type of `offered` the Accept header prefers (highest q; between equals, the one the header
 * names first; wildcards count for every type), or undefined when it accepts none of them. No
 * header, or an empty one, accepts the first offered type.
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | undefined {
  const ranges = accept === undefined ? [] : mediaRanges(accept);
  if (ranges.length === 0) return offered[0];
  let best: { type: string; q: number; order: number; exact: number } | undefined;
  for (const type of offered) {
    const [main, sub] = type.split('/');
    // The most specific range that matches decides the type's q (RFC 9110, 12.5.1).
    const matching = ranges
      .filter(
        (range) =>
          (range.type === '*' || range.type === main) && (range.subtype === '*' || range.subtype === sub),
      )
      .sort((a, b) => specificity(b) - specificity(a));
    const range = matching[0];
    if (!range || range.q <= 0) continue;
    const candidate = { type, q: range.q, order: range.order, exact: specificity(range) };
    if (
      !best ||
      candidate.q > best.q ||
      (candidate.q === best.q && candidate.exact > best.exact) ||
      (candidate.q === best.q && candidate.exact === best.exact && candidate.order < best.order)
    )
      best = candidate;
  }
  return best?.type;
}

function specificity(range: MediaRange): number {
  return (range.type === '*' ? 0 : 1) + (range.subtype === '*' ? 0 : 1);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer's type chosen from `format` and `Accept` (list routes; JSON elsewhere). */
    answerType: string;
  }
}

/** Whether the list answers CSV: `format=csv`, or no `format` and an Accept that prefers text/csv. */
export function wantsCsv(request: FastifyRequest): boolean {
  return request.answerType === CSV_TYPE;
}

function formatOf(request: FastifyRequest): string | undefined {
  const format = (request.query as { format?: unknown } | undefined)?.format;
  return typeof format === 'string' ? format : undefined;
}

function recordOf(row: unknown, columns: readonly string[]): string[] {
  const record = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
  return columns.map((column) => csvCell(record[column]));
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

/** The `format` parameter every list declares (so `format=xlsx` is a 422 naming the values). */
const FORMAT_PARAMETER = {
  type: 'string',
  enum: [...FORMATS],
  description:
    'csv: answer text/csv instead of JSON (as `Accept: text/csv` does); same rows, same charge. Default json',
};

function withFormatParameter(schema: FastifySchema): FastifySchema {
  const query = (schema.querystring ?? { type: 'object', properties: {} }) as {
    properties?: Record<string, unknown>;
  };
  return {
    ...schema,
    querystring: { ...query, properties: { ...query.properties, format: FORMAT_PARAMETER } },
  } as FastifySchema;
}

/** Route config naming the types a GET route answers, when not JSON alone (or JSON and CSV). */
export interface AnswerTypesConfig {
  answerTypes?: readonly string[];
}

/**
 * A JSON route's answer types, and a list's: the GET routes whose 200 answer is declared as a
 * schema (pages and answers of other types declare none), or what the route's config names.
 */
function offeredTypes(
  route: { method: string | string[]; schema?: FastifySchema; config?: unknown },
  list: boolean,
): readonly string[] | undefined {
  if (!routeMethods(route).includes('GET')) return undefined;
  const declared = (route.config as AnswerTypesConfig | undefined)?.answerTypes;
  if (declared) return declared;
  const response = route.schema?.response as Record<string, unknown> | undefined;
  const ok = response?.[200] ?? response?.['200'];
  if (ok === undefined || (ok as { content?: unknown }).content !== undefined) return undefined;
  return list ? [JSON_TYPE, CSV_TYPE] : [JSON_TYPE];
}

export function registerCsv(app: App): void {
  app.decorateRequest('csvAnswer', null);
  app.decorateRequest('answerType', JSON_TYPE);
  // Only list routes can answer CSV: the hooks are attached to those alone (route-hooks.ts).
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    const shapes = new Map<string, ListShape>();
    for (const method of routeMethods(route)) {
      const shape = listShape(routeKey(method, route.url), response?.[200] ?? response?.['200']);
      if (shape) shapes.set(method, shape);
    }
    const offered = offeredTypes(route, shapes.size > 0);
    if (offered) addRouteHook(route, 'preHandler', negotiated(offered));
    if (shapes.size === 0) return;
    if (route.schema) route.schema = withFormatParameter(route.schema);
    addRouteHook(route, 'preSerialization', csvAnswerOf(shapes));
    addRouteHook(route, 'onSend', sendCsv);
  });
}

/** Sets the request's answer type, or refuses one the route cannot give (406). */
function negotiated(offered: readonly string[]) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const format = formatOf(request);
    if (format !== undefined) {
      request.answerType = format === 'csv' ? CSV_TYPE : JSON_TYPE;
      return done();
    }
    const chosen = negotiate(request.headers.accept, offered);
    if (chosen === undefined) {
      return done(
        new ApiError(
          'not_acceptable',
          `This endpoint answers ${offered.join(' or ')}; the Accept header allows neither${offered.length > 1 ? ' (or send format=json|csv)' : ''}`,
          { available: [...offered] },
        ),
      );
    }
    request.answerType = chosen;
    done();
  };
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

function csvAnswerOf(shapes: ReadonlyMap<string, ListShape>) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ) => {
    const shape = shapes.get(request.method);
    if (reply.statusCode >= 400 || !shape || !wantsCsv(request)) return done(null, payload);
    const rows = rowsOfAnswer(shape, payload);
    if (!rows) return done(null, payload);
    request.csvAnswer = { rows, columns: shape.columns };
    reply.type('text/csv; charset=utf-8');
    reply.serializer(() => '');
    done(null, payload);
  };
}
