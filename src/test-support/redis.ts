// A real Redis for tests on 127.0.0.1: a throwaway redis-server (no persistence) started from the
// machine's Debian package, as CI installs it (on a port from ports.ts's freePort).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { commandRuns, requirement } from './requirements.js';

/** Whether tests needing redis-server can run (one line when they cannot; in CI, a failure). */
export function redisReady(): boolean {
  return requirement(
    'redis-server',
    commandRuns('redis-server', ['--version']),
    'install: apt-get install redis-server',
  );
}

/** A redis-server on `port`; resolves once it accepts connections, rejects when it exits or takes over 10 s. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
  });
  return child;
}

/** Stops a process the test started (SIGKILL: a crash, SIGTERM: a clean stop) and waits for its exit. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}
