// Where the shared public data lives for tests and the benchmark: DCLEDGER_DATA_DIR, or
// `../shared/data` beside this checkout, or beside the repository this checkout was cloned from.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTestSettings } from '../config/test-settings.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function originPath(): string | undefined {
  try {
    const url = execFileSync('git', ['config', '--get', 'remote.origin.url'], {
      cwd: repoRoot,
      encoding: 'utf8',
    }).trim();
    if (url === '' || /^[a-z]+:\/\//i.test(url) || /^[^/]+@[^:]+:/.test(url)) return undefined;
    return resolve(repoRoot, url);
  } catch {
    return undefined;
  }
}

export function findDataDir(): string | undefined {
  const configured = readTestSettings().dataDir;
  if (configured) return existsSync(configured) ? resolve(configured) : undefined;
  const candidates = [join(repoRoot, '..', 'shared', 'data')];
  const origin = originPath();
  if (origin) candidates.push(join(origin, '..', 'shared', 'data'));
  return candidates.find((candidate) => existsSync(join(candidate, 'congress')));
}

/**
 * What a run does without the shared data: in CI it fails (428 real-data tests would skip and the
 * run still pass); a developer's local run skips them, loudly.
 */
export function missingDataOutcome(ci: boolean): { fail: boolean; message: string } {
  return ci
    ? {
        fail: true,
        message:
          'shared data not found and CI=true: the real-data tests cannot run (set DCLEDGER_DATA_DIR to the shared data directory)',
      }
    : {
        fail: false,
        message: 'shared data not found (set DCLEDGER_DATA_DIR): real-data tests are skipped',
      };
}

export function requireDataDir(): string {
  const dir = findDataDir();
  if (!dir) {
    throw new Error('shared data not found: set DCLEDGER_DATA_DIR to the shared data directory');
  }
  return dir;
}

export { repoRoot };
