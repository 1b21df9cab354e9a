// What every benchmark section says about the machine it ran on, and what a section already says.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../src/test-support/data-dir.js';

export function machine(): string {
  return `Node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${new Date().toISOString().slice(0, 10)}`;
}

/** The markers a section's body sits between in BENCHMARKS.md. */
function markers(name: string): { start: string; end: string } {
  return { start: `<!-- bench:${name}:start -->`, end: `<!-- bench:${name}:end -->` };
}

/** `document` with the section's body replaced (or the section added at the end). */
export function replaceSection(document: string, name: string, body: string): string {
  const { start, end } = markers(name);
  const block = `${start}\n${body.trim()}\n${end}`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from !== -1 && to > from) return document.slice(0, from) + block + document.slice(to + end.length);
  return `${document.trimEnd()}\n\n${block}\n`;
}

/** A section's body as BENCHMARKS.md holds it now (empty when it has none): for a run that keeps it. */
export function currentSection(name: string): string {
  const file = join(repoRoot, 'BENCHMARKS.md');
  const document = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const { start, end } = markers(name);
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  return from !== -1 && to > from ? document.slice(from + start.length, to).trim() : '';
}
