import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { fieldsOf, Nullable } from './schema.js';

describe('fieldsOf', () => {
  const Schema = Type.Object({ id: Type.Integer(), name: Nullable(Type.String()) });

  it('serves the properties the schema names, in its order, and no other field of the row', () => {
    const row = { secret: 'whsec_x', name: 'Ada', id: 7 };
    const served = fieldsOf(Schema, row);
    expect(served).toEqual({ id: 7, name: 'Ada' });
    expect(Object.keys(served)).toEqual(['id', 'name']);
  });

  it('keeps a null as null', () => {
    expect(fieldsOf(Schema, { id: 1, name: null })).toEqual({ id: 1, name: null });
  });
});
