// Schema building blocks the resource shapes are written with (and the route schemas reuse).
import { type Static, type TObject, type TSchema, Type } from 'typebox';
import { pick } from '../domain/pick.js';

/** `T | null` as JSON Schema 2020-12 writes it (`type: [T, "null"]`), which OpenAPI 3.1 and the serializer both read. */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string } & Record<string, unknown>;
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** A string limited to `values`; validation errors list the allowed values. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * The resource `schema` describes, read from a row that holds its fields under the same names: the
 * schema's own list of properties says what is served, so no mapper restates it field by field
 * (and a column added to the row is not served until the resource names it).
 */
export function fieldsOf<S extends TObject>(schema: S, row: Static<S>): Static<S> {
  return pick(row, Object.keys(schema.properties) as (keyof Static<S>)[]) as Static<S>;
}

/**
 * A member of Congress as a bill (sponsor, cosponsor) or a committee seat names one: by bioguide
 * id, with the member's id, page slug and party when the member is known here.
 */
export const CongressMemberFields = {
  bioguide_id: Type.String(),
  politician_id: Nullable(Type.Integer()),
  politician_slug: Nullable(Type.String()),
  name: Nullable(Type.String()),
  party: Nullable(Type.String()),
  state: Nullable(Type.String()),
};
