// When a test run's threads and child processes start from dist/: which sources count as stale,
// and where threadModule and childModule point with DCLEDGER_THREADS_FROM_BUILD set and unset.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { childModule, threadModule } from '../threads.js';
import { staleSources } from './compiled-build.js';
import { repoRoot } from './data-dir.js';

describe('staleSources', () => {
  let root = '';
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function write(path: string, secondsAgo: number): void {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
    const at = Date.now() / 1000 - secondsAgo;
    utimesSync(file, at, at);
  }

  it('names a compiled source whose twin is missing or older, never a test or test support', () => {
    root = mkdtempSync(join(tmpdir(), 'dcledger-build-'));
    write('src/fresh.ts', 60);
    write('dist/fresh.js', 30);
    write('src/edited/after.ts', 10);
    write('dist/edited/after.js', 30);
    write('src/never-built.ts', 60);
    write('src/types.d.ts', 10);
    write('src/fresh.test.ts', 10);
    write('src/test-support/helper.ts', 10);
    expect(staleSources(root).sort()).toEqual(['edited/after.ts', 'never-built.ts']);

    write('dist/edited/after.js', 5);
    write('dist/never-built.js', 5);
    expect(staleSources(root)).toEqual([]);
  });
});

describe('threads and child processes from the sources', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const caller = pathToFileURL(join(repoRoot, 'src', 'ingest', 'pdf-worker.ts')).href;

  it('start the compiled twin in dist/ with DCLEDGER_THREADS_FROM_BUILD=1', () => {
    vi.stubEnv('DCLEDGER_THREADS_FROM_BUILD', '1');
    expect(fileURLToPath(threadModule(caller, 'ocr/worker-thread'))).toBe(
      join(repoRoot, 'dist', 'ingest', 'ocr', 'worker-thread.js'),
    );
    expect(childModule(caller, 'pdf-worker-process')).toEqual({
      file: join(repoRoot, 'dist', 'ingest', 'pdf-worker-process.js'),
      execArgv: [],
    });
  });

  it('load the TypeScript through tsx without it, and for a caller outside src/', () => {
    vi.stubEnv('DCLEDGER_THREADS_FROM_BUILD', '');
    expect(threadModule(caller, 'ocr/worker-thread')).toMatch(/^data:text\/javascript,.*tsImport/);
    const child = childModule(caller, 'pdf-worker-process');
    expect(child.file).toBe(join(repoRoot, 'src', 'ingest', 'pdf-worker-process.ts'));
    expect(child.execArgv).toEqual(['--import', expect.stringMatching(/tsx\/dist\/loader\.mjs$/)]);

    vi.stubEnv('DCLEDGER_THREADS_FROM_BUILD', '1');
    const bench = pathToFileURL(join(repoRoot, 'bench', 'http.ts')).href;
    expect(childModule(bench, 'http-server').file).toBe(join(repoRoot, 'bench', 'http-server.ts'));
  });
});
