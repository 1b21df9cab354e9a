// One CSV cell as dcledger writes it, in every CSV it serves (list answers, the bulk history).
//
// Formula injection (OWASP, "CSV Injection"): a spreadsheet opening the file runs a cell that starts
// with `=`, `+`, `-` or `@` as a formula (`=HYPERLINK(...)` in an asset description a filer typed),
// and a leading tab or carriage return can hide such a start. Text cells that start with one of
// them get a leading `'`, which spreadsheets show as text and do not display. Numbers are written
// as numbers: a negative return (-11.44) is data, not a formula.

/** The characters that make a spreadsheet read a text cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}
