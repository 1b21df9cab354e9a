// Machine requirements of some tests (a program from a Debian package): present, the tests run;
// absent on a developer's machine, they skip with one line saying what to install; absent in CI
// (CI=true, where .ci/run installs them all), the run fails instead of passing without them.
import { spawnSync } from 'node:child_process';
import { readTestSettings } from '../config/test-settings.js';

/** True when `command args...` runs and exits 0 (e.g. `redis-server --version`). */
export function commandRuns(command: string, args: string[] = ['--version']): boolean {
  const outcome = spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 });
  return outcome.error === undefined && outcome.status === 0;
}

const announced = new Set<string>();

/**
 * Whether the tests needing `what` can run. Without it: in CI, throws (the run must not pass
 * without them); elsewhere, prints one line naming the package to install and returns false.
 */
export function requirement(
  what: string,
  present: boolean,
  install: string,
  options: { requiredInCi?: boolean } = {},
): boolean {
  if (present) return true;
  const line = `[dcledger tests] ${what} not found: its tests are skipped (${install})`;
  if (readTestSettings().ci && options.requiredInCi !== false)
    throw new Error(`${line.replace('are skipped', 'cannot run')}; CI=true`);
  if (!announced.has(what)) {
    announced.add(what);
    console.warn(line);
  }
  return false;
}
