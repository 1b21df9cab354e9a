// A parameter with a default is optional to the caller, but a TypeBox object lists every
// non-Optional property as required, and generated clients then refuse the natural call
// (`GET /trades` without `limit`). The published document drops defaulted properties from
// `required`, and bounds request integers to the range the validator enforces; validation (which
// fills the defaults in) is untouched.

import { INTEGER_RANGE } from './validation.js';

type JsonSchema = Record<string, unknown>;

function withoutDefaultedRequired(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  const object = schema as JsonSchema;
  const properties = object.properties as Record<string, JsonSchema> | undefined;
  if (!Array.isArray(object.required) || !properties) return schema;
  const required = (object.required as string[]).filter((name) => properties[name]?.default === undefined);
  const copy: JsonSchema = { ...object, required };
  if (required.length === 0) delete copy.required;
  return copy;
}

/**
 * A copy of a request schema whose integers carry the bounds the server enforces: every request
 * integer is refused outside INTEGER_RANGE (validation.ts), so the published minimum and maximum
 * are never wider than it. Copied: the route's own schema objects are what validates.
 */
function boundIntegers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(boundIntegers);
  if (typeof node !== 'object' || node === null) return node;
  const copy = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === 'example' || key === 'default' ? value : boundIntegers(value),
    ]),
  ) as JsonSchema;
  const types = Array.isArray(copy.type) ? copy.type : [copy.type];
  if (types.includes('integer')) {
    const { minimum, maximum } = copy as { minimum?: number; maximum?: number };
    copy.minimum = Math.max(minimum ?? INTEGER_RANGE.min, INTEGER_RANGE.min);
    copy.maximum = Math.min(maximum ?? INTEGER_RANGE.max, INTEGER_RANGE.max);
  }
  return copy;
}

/** @fastify/swagger's `transform`: the route schema as published. */
export function publishedSchema({ schema, url }: { schema: unknown; url: string }): {
  schema: never;
  url: string;
} {
  if (typeof schema !== 'object' || schema === null) return { schema: schema as never, url };
  const route = schema as JsonSchema;
  const published: JsonSchema = { ...route };
  for (const part of ['querystring', 'headers', 'body']) {
    if (part in route) published[part] = boundIntegers(withoutDefaultedRequired(route[part]));
  }
  if ('params' in route) published.params = boundIntegers(route.params);
  return { schema: published as never, url };
}
