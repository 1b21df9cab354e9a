// The last pass over /openapi.json (@fastify/swagger's `transformObject`): rules that hold for every
// operation, derived from what the server does, so a route added anywhere is covered without edits:
// - every response lists the headers the server really sends (X-Request-Id always; RateLimit-* and
//   X-Credits-* on keyed routes; Retry-After on 429; Link on paged lists, see plugins/paging.ts);
// - every operation lists its error answers with the Error schema (400 and 500 everywhere, 422
//   with parameters or a body, 404 with a path parameter; metering adds 401/402/403/429/503);
// - public routes say `security: []`, the account area names its session cookie;
// - resource shapes used anywhere become named components (openapi-components.ts) behind a $ref;
// - the webhook deliveries are the 3.1 `webhooks` section, one entry per event of the catalog.
import { isPublicRoute, isSessionRoute } from '../../accounts/price-table.js';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import { DELIVERY_HEADERS } from '../../webhooks/delivery-headers.js';
import { catalogEvents } from '../../webhooks/event-catalog.js';
import { deliveryBody } from '../../webhooks/runtime.js';
import { listShape } from './csv.js';
import { NAMED_SCHEMAS } from './openapi-components.js';
import { PAGING_EXTENSION } from './paging.js';

type Json = Record<string, unknown>;

interface Operation extends Json {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: ({ in: string; name: string } & Json)[];
  requestBody?: unknown;
  responses?: Record<string, Json>;
  security?: unknown[];
  'x-tier'?: string;
  'x-credits'?: { base: number; per_row: number; per_executive_row: number };
}

export interface DocumentOptions {
  /** DCLEDGER_PUBLIC_URL; without it the document's server is relative to where it was fetched. */
  publicUrl: string | undefined;
  /** Descriptions of the tags the document knows; a tag used by a route but not listed here is added. */
  tags: readonly { name: string; description: string }[];
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);

const header = (description: string, schema: Json, example?: unknown): Json => ({
  description,
  schema: example === undefined ? schema : { ...schema, examples: [example] },
});

/** components/headers: every response header the API sends, described once. */
export const RESPONSE_HEADERS: Readonly<Record<string, Json>> = {
  'X-Request-Id': header(
    'The id of this request (also request_id in every error body); quote it when reporting a problem',
    { type: 'string', format: 'uuid' },
    '0b6f5a52-5d2e-4a8b-a0c1-3f0f3c1b9e77',
  ),
  'RateLimit-Limit': header('Requests per minute the account’s plan allows', { type: 'integer' }, 60),
  'RateLimit-Remaining': header('Requests left in the current one-minute window', { type: 'integer' }, 59),
  'RateLimit-Reset': header('Seconds until the current rate window ends', { type: 'integer' }, 42),
  'X-Credits-Charged': header(
    'Credits this call cost (0 when refused: failed calls are free)',
    { type: 'integer' },
    40,
  ),
  'X-Credits-Remaining': header(
    'The account’s balance after this call: plan allowance left plus purchased credits',
    { type: 'integer' },
    99_960,
  ),
  'Retry-After': header(
    'Seconds to wait before retrying (the rate window, or until midnight UTC for the daily spend cap)',
    { type: 'integer' },
    42,
  ),
  Link: header(
    'Paging links as GitHub sends them (RFC 8288): rel="next" while a full page came back, rel="prev" and rel="first" after the first page. The body stays the list.',
    { type: 'string' },
    '<https://api.example.org/trades?limit=25&offset=25>; rel="next"',
  ),
};

const METERING_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-Credits-Charged',
  'X-Credits-Remaining',
];

const ERROR_TEXT: Readonly<Record<string, string>> = {
  '400':
    'The request is malformed (bad percent-encoding, header, body or JSON), or a query parameter the endpoint does not take (the detail names it and the closest one it takes)',
  '401': 'No API key, an unknown one or a revoked one',
  '402': 'Not enough credits for this call (credits_needed and balance in the body)',
  '403':
    'The account’s plan does not reach this endpoint (required_plan in the body), or the key was revoked',
  '404': 'Nothing has this id',
  '406': 'The Accept header names no type this endpoint answers (`available` in the body)',
  '409': 'The request conflicts with the current state',
  '422': 'A parameter or body field fails validation; the detail and `field` name it',
  '429': 'Over the per-minute rate or the key’s daily spend cap; retry after Retry-After seconds',
  '500': 'Internal error (logged with the request id); retry with exponential backoff',
  '503':
    'Rate limits cannot be checked: the shared rate-limit store (Redis, in a multi-instance deployment) is unreachable; retry after Retry-After seconds',
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function errorResponse(status: string): Json {
  return {
    description: ERROR_TEXT[status] ?? 'The request was refused',
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  };
}

function isPaged(operation: Operation): boolean {
  return operation[PAGING_EXTENSION] !== undefined;
}

/** The headers a response of this operation carries. */
function responseHeaders(operation: Operation, status: string): Record<string, Json> {
  const headers: Record<string, Json> = { 'X-Request-Id': ref('headers', 'X-Request-Id') };
  const keyed = operation['x-tier'] !== undefined;
  // Refused before the key is known (401): no account, so no balance or rate window to report.
  if (keyed && status !== '401') for (const name of METERING_HEADERS) headers[name] = ref('headers', name);
  if (status === '429' || status === '503') headers['Retry-After'] = ref('headers', 'Retry-After');
  if (status === '200' && isPaged(operation)) headers.Link = ref('headers', 'Link');
  return headers;
}

function priceSentence(operation: Operation): string {
  const credits = operation['x-credits'];
  if (!credits || !operation['x-tier']) return '';
  const perRow =
    credits.per_row > 0
      ? ` plus ${credits.per_row} per row${credits.per_executive_row !== credits.per_row ? ` (${credits.per_executive_row} per executive-branch row)` : ''}`
      : '';
  return ` Reached from the ${operation['x-tier']} tier; costs ${credits.base} credits${perRow}.`;
}

function routeKeyOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
}

/** `GET /companies/{ticker}` -> `getCompaniesTicker`: an operationId for a route that gave none. */
function operationIdOf(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words.map((word) => word.charAt(0).toUpperCase() + word.slice(1))].join(
    '',
  );
}

function finishOperation(method: string, path: string, operation: Operation, used: Set<string>): void {
  const key = routeKeyOf(method, path);
  // A route declared without summary, id or tag still gets them (a generator needs each).
  if (!operation.summary?.trim()) operation.summary = key;
  if (typeof operation.operationId !== 'string') operation.operationId = operationIdOf(method, path);
  if (!operation.tags?.length) operation.tags = [path.split('/').filter(Boolean)[0] ?? 'meta'];
  // Only parameters and bodies the route declares are validated (422).
  const validated = (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined;
  // A path parameter the route's schema does not declare is still a required string.
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    const parameters = operation.parameters ?? [];
    if (!parameters.some((parameter) => parameter.in === 'path' && parameter.name === name)) {
      parameters.push({ name: name ?? '', in: 'path', required: true, schema: { type: 'string' } });
    }
    operation.parameters = parameters;
  }
  if (!operation.description?.trim()) {
    const summary = (operation.summary ?? key).replace(/\.$/, '');
    const access = operation['x-tier'] ? priceSentence(operation) : ' Public: no key needed.';
    operation.description = `${summary}.${access}`;
  }
  if (!operation.security) {
    // The account area checks its own session cookie (and CSRF token), which signing up and in do without.
    operation.security = isSessionRoute(key) ? [{ DCSession: [] }, {}] : isPublicRoute(key) ? [] : undefined;
    if (isSessionRoute(key)) used.add('DCSession');
  }
  if (method === 'get') declareCsv(key, operation);
  const responses = operation.responses ?? {};
  const wanted = ['400', '500'];
  if (validated) wanted.push('422');
  if (path.includes('{')) wanted.push('404');
  const ok = responses['200'] as { content?: Record<string, unknown> } | undefined;
  if (method === 'get' && ok?.content?.['application/json']) wanted.push('406');
  for (const status of wanted) if (!responses[status]) responses[status] = errorResponse(status);
  for (const [status, response] of Object.entries(responses)) {
    if (/^[45]/.test(status) && ERROR_TEXT[status] && response.description === ERROR_BODY_DESCRIPTION)
      response.description = ERROR_TEXT[status];
    const headers = responseHeaders(operation, status);
    for (const name of Object.keys(headers)) used.add(name);
    response.headers = { ...headers, ...(response.headers as Json | undefined) };
  }
  operation.responses = responses;
}

/**
 * A list route also answers CSV (plugins/csv.ts): the `format` parameter and the `text/csv` body
 * of its 200 answer, with the columns in order. Runs before shapes are named, so the JSON schema
 * is still inline.
 */
function declareCsv(key: string, operation: Operation): void {
  const ok = operation.responses?.['200'] as { content?: Record<string, { schema?: unknown }> } | undefined;
  const shape = listShape(key, ok?.content?.['application/json']?.schema);
  if (!ok?.content || !shape) return;
  const parameters = operation.parameters ?? [];
  if (!parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'format')) {
    parameters.push({
      name: 'format',
      in: 'query',
      required: false,
      description:
        'csv: answer text/csv instead of JSON (as `Accept: text/csv` does); same rows, same charge',
      schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
    });
  }
  operation.parameters = parameters;
  const rows = shape.field ? `the \`${shape.field}\` list of the JSON answer` : 'the JSON answer';
  ok.content['text/csv'] = {
    schema: {
      type: 'string',
      description:
        `CSV, one line per item of ${rows}, after a header line with the columns: ${shape.columns.join(', ')}. ` +
        'null is an empty cell; nested objects and lists are JSON text (docs/csv.md).',
    },
  };
}

const ERROR_BODY_DESCRIPTION = (NAMED_SCHEMAS.Error as unknown as { description?: string }).description;

function pascal(event: string): string {
  return event
    .split(/[._-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The 3.1 `webhooks` section: what a subscriber's URL receives for each event of the catalog. */
function webhooks(schemas: Json): Json {
  const section: Json = {};
  for (const entry of catalogEvents()) {
    const name = `${pascal(entry.event)}Event`;
    schemas[name] = {
      type: 'object',
      description: `The body of a ${entry.event} delivery: ${entry.resource}`,
      required: ['event', 'data'],
      properties: {
        event: { type: 'string', const: entry.event },
        data: JSON.parse(JSON.stringify(entry.payload_schema)) as Json,
      },
      additionalProperties: false,
    };
    section[entry.event] = {
      post: {
        operationId: `webhook${pascal(entry.event)}`,
        tags: ['alerts'],
        summary: `${entry.event} delivery`,
        description: `Sent to each subscription of ${entry.event} (filters: ${entry.filters.map((filter) => filter.name).join(', ')}). Fires when: ${entry.fires_when}. Verify the signature before trusting the body (docs/webhooks.md).`,
        security: [],
        parameters: DELIVERY_HEADERS.map((header) => ({
          name: header.name,
          in: 'header',
          required: header.onlyValues === undefined,
          description: header.description,
          schema: header.onlyValues ? { type: 'string', enum: [...header.onlyValues] } : { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('schemas', name),
              examples: {
                sample: {
                  summary: `A ${entry.event} delivery`,
                  value: JSON.parse(deliveryBody(entry.event, JSON.stringify(entry.example))) as unknown,
                },
              },
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx answer acknowledges the delivery' },
          '410': { description: 'Gone: the subscription is disabled and nothing more is sent' },
          '429': {
            description:
              'Any other answer (or none within the timeout) fails the attempt; it is retried on the schedule of GET /alerts/webhooks/guide, and a Retry-After header postpones the retry',
          },
        },
      },
    };
  }
  return section;
}

// --- Named components: every subtree shaped like a NAMED_SCHEMAS entry becomes a $ref. ---

/** Keys a use site may set on a shared shape without making it another shape. */
const SITE_KEYS = new Set(['description', 'examples', 'example', 'title']);

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const entries = Object.entries(value as Json)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
}

function shapeOf(schema: Json): string {
  const shape: Json = {};
  for (const [key, value] of Object.entries(schema)) if (!SITE_KEYS.has(key)) shape[key] = value;
  return canonical(shape);
}

/** A cheap first test before comparing whole shapes: the sorted property names. */
function propertyKey(schema: Json): string | undefined {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return undefined;
  return Object.keys(properties).sort().join(',');
}

interface Named {
  name: string;
  body: Json;
  shape: string;
}

function namedShapes(): Map<string, Named[]> {
  const byProperties = new Map<string, Named[]>();
  for (const [name, schema] of Object.entries(NAMED_SCHEMAS)) {
    const body = JSON.parse(JSON.stringify(schema)) as Json;
    const key = propertyKey(body);
    if (key === undefined) throw new Error(`named schema ${name} is not an object schema`);
    const list = byProperties.get(key) ?? [];
    list.push({ name, body, shape: shapeOf(body) });
    byProperties.set(key, list);
  }
  return byProperties;
}

function match(node: Json, shapes: Map<string, Named[]>): Named | undefined {
  const key = propertyKey(node);
  if (key === undefined) return undefined;
  const candidates = shapes.get(key);
  if (!candidates) return undefined;
  const shape = shapeOf(node);
  return candidates.find((candidate) => candidate.shape === shape);
}

/** Replaces named shapes below `node` (not `node` itself) with $refs; adds what it names to `schemas`. */
function nameShapes(node: unknown, shapes: Map<string, Named[]>, schemas: Json, pending: Named[]): void {
  if (typeof node !== 'object' || node === null) return;
  const entries: [string | number, unknown][] = Array.isArray(node)
    ? node.map((item, index) => [index, item])
    : Object.entries(node as Json);
  for (const [key, child] of entries) {
    if (typeof child !== 'object' || child === null || Array.isArray(child)) {
      nameShapes(child, shapes, schemas, pending);
      continue;
    }
    const named = match(child as Json, shapes);
    if (!named) {
      nameShapes(child, shapes, schemas, pending);
      continue;
    }
    if (!(named.name in schemas)) {
      schemas[named.name] = named.body;
      pending.push(named);
    }
    const site: Json = ref('schemas', named.name);
    for (const siteKey of SITE_KEYS) {
      const value = (child as Json)[siteKey];
      if (value !== undefined && canonical(value) !== canonical(named.body[siteKey])) site[siteKey] = value;
    }
    (node as Json)[key as string] = site;
  }
}

function nameAllShapes(document: Json, schemas: Json): void {
  const shapes = namedShapes();
  const pending: Named[] = [];
  nameShapes(document.paths, shapes, schemas, pending);
  nameShapes(document.webhooks, shapes, schemas, pending);
  for (const name of Object.keys(schemas)) nameShapes(schemas[name], shapes, schemas, pending);
  // A named shape may hold another (Whale holds WhalePerson): name inside each new component too.
  while (pending.length > 0) {
    const next = pending.pop();
    if (next) nameShapes(schemas[next.name], shapes, schemas, pending);
  }
}

/** The whole pass; `document` is @fastify/swagger's object and is changed in place. */
export function finishDocument(document: Json, options: DocumentOptions): Json {
  document.info = {
    ...(document.info as Json),
    contact: options.publicUrl
      ? {
          name: 'The operator of this dcledger service',
          url: `${options.publicUrl.replace(/\/+$/, '')}/docs/guides`,
        }
      : { name: 'The operator of this dcledger service' },
    license: { name: 'MIT', identifier: 'MIT' },
    // The terms of use of the data (the licence above is the code's): a page of its own. Without a
    // public URL the path stays relative here; /openapi.json makes it absolute per listening address.
    termsOfService: `${options.publicUrl ? options.publicUrl.replace(/\/+$/, '') : ''}/ui/terms`,
  };
  document.servers = options.publicUrl
    ? [{ url: options.publicUrl.replace(/\/+$/, ''), description: 'This service (DCLEDGER_PUBLIC_URL)' }]
    : [
        {
          url: '/',
          description: 'The host this document was fetched from (set DCLEDGER_PUBLIC_URL to publish it)',
        },
      ];

  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const usedTags = new Set<string>();
  // Header components and the session scheme are published only where an operation uses them.
  const used = new Set<string>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.has(method)) continue;
      finishOperation(method, path, operation, used);
      for (const tag of operation.tags ?? []) usedTags.add(tag);
    }
  }
  const tags = options.tags.filter((tag) => usedTags.has(tag.name) || tag.name === 'alerts');
  for (const name of usedTags) {
    if (!tags.some((tag) => tag.name === name)) tags.push({ name, description: `Operations on ${name}` });
  }
  document.tags = tags;

  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  document.webhooks = webhooks(schemas);
  nameAllShapes(document, schemas);
  // Every operation's error answers refer to it, whether or not a route declared the shape itself.
  schemas.Error ??= JSON.parse(JSON.stringify(NAMED_SCHEMAS.Error)) as Json;
  components.schemas = schemas;
  components.headers = Object.fromEntries(
    Object.entries(RESPONSE_HEADERS).filter(([name]) => used.has(name)),
  );
  components.securitySchemes = {
    ...(components.securitySchemes as Json | undefined),
  };
  if (used.has('DCSession'))
    (components.securitySchemes as Json).DCSession = {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description:
        'The account area’s session cookie, set by POST /account/login; every POST also needs the X-CSRF-Token header',
    };
  document.components = components;
  return document;
}
