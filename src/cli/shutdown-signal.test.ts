// The shutdown handler as a real process: whatever `stop` waits for, the process stays until the
// stop has finished and said so. A stop that waits on something holding no reference on the event
// loop (an unreferenced worker thread's exit, here an unreferenced timer) must not end the process
// early with code 0 and no word.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exited, spawnProgram, until } from '../test-support/cli.js';
import { repoRoot } from '../test-support/data-dir.js';

describe('onShutdownSignal', () => {
  it('keeps the process until a stop that holds no reference on the event loop has finished', async () => {
    const module = pathToFileURL(join(repoRoot, 'src', 'cli', 'shutdown.ts')).href;
    const spawned = spawnProgram(`
      const { pino } = await import('pino');
      const { onShutdownSignal } = await import(${JSON.stringify(module)});
      const log = pino();
      onShutdownSignal(log, 20000, () => new Promise((resolve) => setTimeout(resolve, 300).unref()));
      const alive = setInterval(() => {}, 1000);
      process.on('SIGTERM', () => clearInterval(alive));
      console.log('ready');
    `);
    await until(async () => spawned.output().includes('ready'), 60_000, spawned.output);
    spawned.child.kill('SIGTERM');
    const { code, signal } = await exited(spawned.child);
    expect({ code, signal }, spawned.output()).toEqual({ code: 0, signal: null });
    expect(spawned.output()).toContain('shut down cleanly');
  });
});
