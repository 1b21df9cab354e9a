// The compiled build (dist/) that a test run's threads and child processes start from
// (DCLEDGER_THREADS_FROM_BUILD, config/threads.ts): loading each one's TypeScript through tsx
// costs it seconds of CPU, and a run starts hundreds. The run's setup compiles dist/ first when a
// source is newer than its compiled twin, so the children run the code under test.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { repoRoot } from './data-dir.js';

/** What tsconfig.build.json leaves out of dist/: the tests and this folder. */
function compiled(pathInSources: string): boolean {
  return (
    pathInSources.endsWith('.ts') &&
    !pathInSources.endsWith('.d.ts') &&
    !pathInSources.endsWith('.test.ts') &&
    !pathInSources.startsWith('test-support/')
  );
}

/**
 * The sources under `root`/src whose compiled twin under `root`/dist is missing or older than
 * they are (paths relative to src/, with forward slashes).
 */
export function staleSources(root: string = repoRoot): string[] {
  const sources = join(root, 'src');
  const stale: string[] = [];
  for (const entry of readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(sources, join(entry.parentPath, entry.name)).split('\\').join('/');
    if (!compiled(path)) continue;
    const twin = statSync(join(root, 'dist', path.replace(/\.ts$/, '.js')), { throwIfNoEntry: false });
    if (!twin || twin.mtimeMs < statSync(join(sources, path)).mtimeMs) stale.push(path);
  }
  return stale;
}

/**
 * Compiles src/ into dist/ (types unchecked: `npm run typecheck` is the check) when a source is
 * newer than its twin. True when dist/ is then the build of these sources; false, with the reason
 * on stderr, when compiling failed (the children then load the sources through tsx).
 */
export function ensureCompiledBuild(root: string = repoRoot): boolean {
  if (staleSources(root).length === 0) return true;
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--noCheck'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status === 0 && staleSources(root).length === 0) return true;
  process.stderr.write(
    `[dcledger tests] dist/ was not compiled (${run.error?.message ?? `exit ${run.status}`}); threads and child processes load the sources through tsx\n${run.stdout ?? ''}${run.stderr ?? ''}`,
  );
  return false;
}
