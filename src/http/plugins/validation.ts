// The validator every route schema compiles with: Fastify's own Ajv setup, plus one rule Ajv
// misses. Ajv coerces the query string "Infinity" (or "1e400") to a number and then skips the
// integer, minimum and maximum checks for a non-finite value, so `limit=Infinity` reached the
// database. Checking the coerced result here covers every route, present and future, and every
// part of a request (query, path, headers, JSON body, where 1e400 parses to Infinity too).
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

type Validate = ((data: unknown) => unknown) & { errors?: unknown };

/** JSON-pointer path of the first number in `value` that is not finite, or null. */
export function nonFinitePath(value: unknown, path = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nonFinitePath(item, `${path}/${index}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      const found = nonFinitePath(item, `${path}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (found !== null) return found;
    }
  }
  return null;
}

function finiteOnly(validate: Validate): Validate {
  const checked: Validate = (data: unknown) => {
    const result = validate(data);
    if (result !== true) {
      checked.errors = validate.errors;
      return result;
    }
    const path = nonFinitePath(data);
    if (path === null) {
      checked.errors = null;
      return true;
    }
    const issue: ValidationIssue = {
      keyword: 'finite',
      instancePath: path,
      schemaPath: '#/finite',
      params: {},
      message: 'must be a finite number',
    };
    checked.errors = [issue];
    return false;
  };
  return checked;
}

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type BuildCompiler = ReturnType<typeof AjvCompiler>;

const buildAjvValidator = AjvCompiler();

/** Fastify's `schemaController` with the finite-number rule on every compiled validator. */
export const validationController: SchemaController = {
  compilersFactory: {
    buildValidator: ((...factoryArgs: Parameters<BuildCompiler>) => {
      const compile = buildAjvValidator(...factoryArgs);
      return (route: Parameters<typeof compile>[0]) => finiteOnly(compile(route) as Validate);
    }) as BuildCompiler,
  },
};
