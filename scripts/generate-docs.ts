// `npm run docs:generate`: rewrites the generated regions of README.md and docs/*.md from the code's
// tables (see docs-tables.ts). `npm run docs:generate -- --check` only reports stale files (exit 1).
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentStates } from './docs-tables.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const stale = documentStates(root).filter((state) => state.current !== state.refreshed);

for (const state of stale) {
  if (check) console.error(`${state.file}: generated tables are stale`);
  else writeFileSync(join(root, state.file), state.refreshed);
}
if (check && stale.length > 0) {
  console.error('run `npm run docs:generate` to refresh them');
  process.exit(1);
}
if (!check)
  console.log(
    stale.length ? `refreshed ${stale.map((state) => state.file).join(', ')}` : 'docs are up to date',
  );
