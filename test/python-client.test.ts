// The Python client (packages/python): its pytest suite, run against a live dcledger server that
// the suite's fixture starts (src/test-support/live-server.ts) from a copy of this run's real-data
// fixture, on SQLite (the PostgreSQL run leaves it out: it checks the client, whose routes are
// tested on both databases by their own tests). The test fails when pytest does; without python3 and pytest it skips with one line (in CI it fails).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../src/test-support/data-dir.js';
import { commandRuns, requirement } from '../src/test-support/requirements.js';

const fixture = inject('fixture');
const pythonReady =
  fixture !== null &&
  requirement(
    'python3 with pytest',
    commandRuns('python3', ['-c', 'import pytest']),
    'install: apt-get install python3 python3-pytest',
  );

function runPytest(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'python3',
      ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', join(repoRoot, 'packages', 'python', 'tests')],
      { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe.skipIf(!pythonReady)('the Python client', () => {
  it('passes its pytest suite against a live server', async () => {
    // The child is no vitest worker: without the VITEST variables the server does not look for
    // vitest's provided context, and takes the fixture from DCLEDGER_LIVE_FIXTURE instead.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')),
    );
    const { code, output } = await runPytest({
      ...env,
      DCLEDGER_LIVE_FIXTURE: JSON.stringify(fixture),
      PYTHONDONTWRITEBYTECODE: '1',
    });
    expect(code, output).toBe(0);
    // Every test ran: a module that fails to import, or tests all skipped, would not say "passed".
    expect(output).toMatch(/\d+ passed/);
  }, 600_000);
});
