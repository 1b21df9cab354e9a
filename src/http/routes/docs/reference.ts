// GET /docs: the API reference as one server-rendered page, built from the same OpenAPI document
// as /openapi.json. It replaces Swagger UI, whose page failed axe (unnamed buttons, an image
// without alt, unlabelled fields, low contrast, nested interactive controls) and needs inline
// styles that the pages' Content-Security-Policy refuses. Here every operation is a native
// <details> element (keyboard and screen-reader friendly without a script), grouped by tag, with
// its parameters, body, answers, plan and credit cost, and every named schema is a table.

import { Html, html, page, scrollTable } from '../../pages/html.js';
import type { App } from '../../types.js';
import { GUIDES_PATH, renderMarkdown } from './render.js';

type Json = Record<string, unknown>;

interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
  additionalProperties?: boolean | Schema;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { description?: string; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
  'x-tier'?: string;
  'x-credits'?: { base: number; per_row: number; per_executive_row: number };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const anchor = (prefix: string, name: string) => `${prefix}-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

function markdown(text: string | undefined): Html {
  return new Html(text ? renderMarkdown(text) : '');
}

/** A schema as a short type: `string`, `integer ≤ 1000`, `array of Trade` (linked), `one of a, b`. */
function typeOf(schema: Schema | undefined, depth = 0): Html {
  if (!schema) return html`any`;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? schema.$ref;
    return html`<a href="#${anchor('schema', name)}">${name}</a>`;
  }
  if (depth > 3) return html`object`;
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants)
    return html`${variants.map((variant, index) => html`${index ? ' or ' : ''}${typeOf(variant, depth + 1)}`)}`;
  if (schema.enum) return html`one of ${schema.enum.map((value) => String(value)).join(', ')}`;
  if (schema.const !== undefined) return html`${JSON.stringify(schema.const)}`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object'];
  const parts = types.map((type) => {
    if (type === 'array') return html`array of ${typeOf(schema.items, depth + 1)}`;
    const bounds = [
      schema.format,
      schema.minimum !== undefined ? `≥ ${schema.minimum}` : '',
      schema.maximum !== undefined ? `≤ ${schema.maximum}` : '',
      schema.maxLength !== undefined ? `up to ${schema.maxLength} characters` : '',
    ].filter(Boolean);
    return html`${type}${bounds.length ? ` (${bounds.join(', ')})` : ''}`;
  });
  return html`${parts.map((part, index) => html`${index ? ' or ' : ''}${part}`)}`;
}

function propertiesTable(label: string, schema: Schema): Html {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return html`<p>Type: ${typeOf(schema)}</p>`;
  const required = new Set(schema.required ?? []);
  return scrollTable(
    label,
    html`<table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${properties.map(
      ([name, property]) =>
        html`<tr><td><code>${name}</code></td><td>${typeOf(property)}</td><td>${required.has(name) ? 'yes' : ''}</td><td>${property.description ?? ''}</td></tr>`,
    )}</tbody></table>`,
  );
}

function access(operation: Operation): string {
  const credits = operation['x-credits'];
  if (!operation['x-tier'] || !credits) return 'Public: no key needed.';
  const perRow = credits.per_row
    ? `, plus ${credits.per_row} per row${credits.per_executive_row !== credits.per_row ? ` (${credits.per_executive_row} per executive-branch row)` : ''}`
    : '';
  return `Plan tier ${operation['x-tier']}; ${credits.base} credits a call${perRow}.`;
}

function operationBlock(path: string, method: string, operation: Operation): Html {
  const id = anchor('op', operation.operationId ?? `${method}-${path}`);
  const label = `${method.toUpperCase()} ${path}`;
  const parameters = operation.parameters ?? [];
  const body = operation.requestBody?.content;
  const responses = Object.entries(operation.responses ?? {});
  // Refusals mean the same on every operation: listed once, at the end of the page.
  const answers = responses.filter(([status]) => !/^[45]/.test(status));
  const refusals = responses.filter(([status]) => /^[45]/.test(status));
  return html`<details id="${id}"><summary><span class="method ${method}">${method.toUpperCase()}</span><code>${path}</code> ${operation.summary ?? ''}</summary>
${markdown(operation.description)}
<p>${access(operation)}</p>
${
  parameters.length
    ? html`<h3>Parameters</h3>${scrollTable(
        `Parameters of ${label}`,
        html`<table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${parameters.map(
          (parameter) =>
            html`<tr><td><code>${parameter.name}</code></td><td>${parameter.in}</td><td>${typeOf(parameter.schema)}</td><td>${parameter.required ? 'yes' : ''}</td><td>${parameter.description ?? parameter.schema?.description ?? ''}</td></tr>`,
        )}</tbody></table>`,
      )}`
    : ''
}
${
  body
    ? html`<h3>Request body</h3>${Object.entries(body).map(
        ([type, content]) =>
          html`<p><code>${type}</code>${content.schema?.$ref ? html`: ${typeOf(content.schema)}` : ''}</p>${content.schema && !content.schema.$ref ? propertiesTable(`Body of ${label}`, content.schema) : ''}`,
      )}`
    : ''
}
<h3>Answers</h3>
${scrollTable(
  `Answers of ${label}`,
  html`<table><thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Body</th></tr></thead><tbody>${answers.map(
    ([status, response]) =>
      html`<tr><td>${status}</td><td>${response.description ?? ''}</td><td>${Object.entries(
        response.content ?? {},
      ).map(([type, content]) => html`<code>${type}</code> ${typeOf(content.schema)}<br>`)}</td></tr>`,
  )}</tbody></table>`,
)}
${refusals.length ? html`<p>Refusals: ${refusals.map(([status], index) => html`${index ? ', ' : ''}<a href="#status-${status}">${status}</a>`)}, each with an <a href="#schema-Error">Error</a> body.</p>` : ''}
</details>`;
}

/** The reference page's body for an OpenAPI document. */
export function referenceBody(document: Json): Html {
  const info = (document.info ?? {}) as { description?: string; version?: string };
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const declaredTags = ((document.tags ?? []) as Array<{ name: string; description?: string }>).map(
    (tag) => ({
      name: tag.name,
      description: tag.description,
    }),
  );
  const byTag = new Map<string, Array<[string, string, Operation]>>();
  for (const [path, operations] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), [path, method, operation]]);
    }
  }
  const tags = [
    ...declaredTags.filter((tag) => byTag.has(tag.name)),
    ...[...byTag.keys()]
      .filter((name) => !declaredTags.some((tag) => tag.name === name))
      .map((name) => ({ name, description: undefined })),
  ];
  const statuses = new Map<string, string>();
  for (const operations of Object.values(paths))
    for (const operation of Object.values(operations))
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if (/^[45]/.test(status) && !statuses.has(status)) statuses.set(status, response.description ?? '');
  const schemas = Object.entries(
    ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Schema>,
  ).sort(([a], [b]) => a.localeCompare(b));
  return html`<div class="reference">
<p>Version ${info.version ?? ''}. The same description as OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a>. Guides: <a href="${GUIDES_PATH}">${GUIDES_PATH}</a>. Terms of use: <a href="/ui/terms">/ui/terms</a>.</p>
${markdown(info.description)}
<nav aria-label="Operations by tag"><h2>Contents</h2><ul class="tags">${tags.map(
    (tag) =>
      html`<li><a href="#${anchor('tag', tag.name)}">${tag.name}</a> (${byTag.get(tag.name)?.length ?? 0})</li>`,
  )}<li><a href="#refusals">Refusals</a></li><li><a href="#schemas">Schemas</a> (${schemas.length})</li></ul></nav>
${tags.map(
  (tag) =>
    html`<section aria-labelledby="${anchor('tag', tag.name)}"><h2 id="${anchor('tag', tag.name)}">${tag.name}</h2>${tag.description ? html`<p>${tag.description}</p>` : ''}
${(byTag.get(tag.name) ?? []).map(([path, method, operation]) => operationBlock(path, method, operation))}</section>`,
)}
<section aria-labelledby="refusals"><h2 id="refusals">Refusals</h2>
<p>Every refusal is JSON <code>{ detail, request_id, code }</code>; what each status means (an operation may say more in its description):</p>
<dl>${[...statuses.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([status, description]) => html`<dt id="status-${status}">${status}</dt><dd>${description}</dd>`,
    )}</dl></section>
<section aria-labelledby="schemas"><h2 id="schemas">Schemas</h2>
${schemas.map(
  ([name, schema]) =>
    html`<details id="${anchor('schema', name)}"><summary><code>${name}</code></summary>${schema.description ? html`<p>${schema.description}</p>` : ''}${propertiesTable(`Fields of ${name}`, schema)}</details>`,
)}</section>
</div>`;
}

export function referenceRoute(app: App): void {
  // The document is fixed once the app is ready: render it once, on the first request.
  let rendered: string | undefined;
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    rendered ??= page(
      { title: 'dcledger API reference', signedIn: false, current: '/docs' },
      referenceBody(app.swagger() as unknown as Json),
    ).text;
    return reply.type('text/html; charset=utf-8').send(rendered);
  });
}
