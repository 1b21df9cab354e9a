// What every benchmark section says about the machine it ran on, and what a section already says.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../src/test-support/data-dir.js';

export function machine(): string {
  return `Node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${new Date().toISOString().slice(0, 10)}`;
}

/** A section's body as BENCHMARKS.md holds it now (empty when it has none): for a run that keeps it. */
export function currentSection(name: string): string {
  const file = join(repoRoot, 'BENCHMARKS.md');
  const document = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = `<!-- bench:${name}:start -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(`<!-- bench:${name}:end -->`);
  return from !== -1 && to > from ? document.slice(from + start.length, to).trim() : '';
}
