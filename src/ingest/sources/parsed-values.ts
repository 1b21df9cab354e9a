// Reading values out of a parsed JSON answer (or XML parsed to objects) whose shape is not
// trusted: a value that is not what was expected reads as empty, and the reader decides whether
// empty is an error.
export type Obj = Record<string, unknown>;

/** The value as an object, or an empty one when it is anything else (null, a list, a string). */
export function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

/** The value as trimmed text, or null when it is missing or blank. */
export function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value).trim();
  return s === '' ? null : s;
}
