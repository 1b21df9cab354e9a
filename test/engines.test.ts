// package.json's engines.node is what the locked dependencies allow: every package in
// package-lock.json that declares engines.node accepts every Node version the root's range does,
// so a version the README promises cannot be one a dependency refuses (cookie 2, which Fastify
// uses, declares Node 22; vitest skips Node 23; better-sqlite3 lists the majors it builds for).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/test-support/data-dir.js';

interface LockEntry {
  version?: string;
  optional?: boolean;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Locked packages whose engines.node refuses some Node version the range accepts. */
function refusing(range: string): string[] {
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.optional)
    .flatMap(([path, entry]) => {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return wanted && !semver.subset(range, wanted) ? [`${path}@${entry.version} wants node ${wanted}`] : [];
    });
}

describe('Node versions', () => {
  it('engines.node is a range every locked dependency accepts', () => {
    expect(semver.validRange(manifest.engines.node)).not.toBeNull();
    expect(refusing(manifest.engines.node)).toEqual([]);
  });

  it('would catch a range wider than the dependencies allow', () => {
    expect(refusing('>=20.18').some((line) => line.startsWith('node_modules/cookie@'))).toBe(true);
  });

  it('the README states the same versions', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain(`engines: \`${manifest.engines.node}\``);
  });
});
