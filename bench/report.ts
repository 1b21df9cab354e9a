// BENCHMARKS.md holds one section per benchmark; each run replaces only its own section.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../src/test-support/data-dir.js';

const FILE = join(repoRoot, 'BENCHMARKS.md');
const HEADER = `# Benchmarks

Produced by \`npm run bench\` (all sections) or \`npm run bench -- <section>\`. Numbers are from the
machine named in each section; compare ratios, not absolute figures, across machines.
`;

export function writeSection(name: string, body: string): void {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  let text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text =
    from !== -1 && to !== -1
      ? `${text.slice(0, from)}${block}${text.slice(to + end.length)}`
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(FILE, text);
}

export function machine(): string {
  return `Node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${new Date().toISOString().slice(0, 10)}`;
}
