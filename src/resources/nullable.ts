// `T | null` as JSON Schema 2020-12 writes it (`type: [T, "null"]`), for resource schemas that
// http (serialization, OpenAPI) and webhooks (event catalog) both use; the same helper as
// http/schemas/common.ts's, which resources may not import.
import { type Static, type TSchema, Type } from 'typebox';

export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string } & Record<string, unknown>;
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

export const nullableText = (description: string) => Nullable(Type.String({ description }));
export const nullableNumber = (description: string) => Nullable(Type.Number({ description }));
