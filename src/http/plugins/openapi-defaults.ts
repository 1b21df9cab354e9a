// A parameter with a default is optional to the caller, but a TypeBox object lists every
// non-Optional property as required, and generated clients then refuse the natural call
// (`GET /trades` without `limit`). The published document drops defaulted properties from
// `required`; validation (which fills the defaults in) is untouched.

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

/** @fastify/swagger's `transform`: the route schema as published. */
export function publishedSchema({ schema, url }: { schema: unknown; url: string }): {
  schema: never;
  url: string;
} {
  if (typeof schema !== 'object' || schema === null) return { schema: schema as never, url };
  const route = schema as JsonSchema;
  const published: JsonSchema = { ...route };
  for (const part of ['querystring', 'headers', 'body']) {
    if (part in route) published[part] = withoutDefaultedRequired(route[part]);
  }
  return { schema: published as never, url };
}
