// The SDK as a user gets it: `npm pack` of packages/sdk (its `prepare` builds dist/), the tarball
// installed into a clean folder outside the repository, the shipped example and the README's
// openapi-fetch snippet type-checked there against the installed types, compiled, and the example
// run against a listening app.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, type FixtureApp, openFixtureApp, realDataAvailable } from '../src/test-support/app.js';
import { repoRoot } from '../src/test-support/data-dir.js';

const run = promisify(execFile);
const sdkDir = join(repoRoot, 'packages', 'sdk');
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The installed SDK's own version of @types/node, as the repository pins it. */
function typesNodeRange(): string {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  return manifest.devDependencies['@types/node'] ?? '*';
}

// The README's point about media types: with 'application/json' the list's data is the JSON
// array, not the union with the CSV text. Constructed for this test.
const JSON_CONTENT_TYPE = `import createClient from 'openapi-fetch';
import type { paths, Trade } from '@dcledger/sdk';

export async function firstTicker(baseUrl: string): Promise<string | undefined> {
  const raw = createClient<paths, 'application/json'>({ baseUrl, headers: { 'DC-API-Key': 'dc_...' } });
  const { data } = await raw.GET('/trades', { params: { query: { ticker: 'NVDA', limit: 1 } } });
  const rows: Trade[] | undefined = data;
  return rows?.[0]?.ticker;
}
`;

describe('the packed SDK', () => {
  let work = '';
  let ctx: FixtureApp | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'dcledger-sdk-pack-'));
    if (realDataAvailable()) {
      ctx = await openFixtureApp();
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    }
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('packs dist/ with types and the README, installs into a clean folder, type-checks and runs', async () => {
    const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', work], {
      cwd: sdkDir,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
    }[];
    if (!packed) throw new Error('npm pack reported nothing');
    const files = packed.files.map((file) => file.path);
    for (const shipped of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/openapi.d.ts',
    ])
      expect(files, shipped).toContain(shipped);
    expect(files.filter((file) => file.endsWith('.test.ts') || file.startsWith('examples/'))).toEqual([]);

    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'sdk-user',
        private: true,
        type: 'module',
        dependencies: { '@dcledger/sdk': `file:${join(work, packed.filename)}` },
        devDependencies: { '@types/node': typesNodeRange() },
      }),
    );
    // The npm registry is the only network this may use, and its packages are in npm's cache
    // already after the repository's own install.
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: app,
    });

    const example = readFileSync(join(sdkDir, 'examples', 'recent-trades.ts'), 'utf8');
    expect(example).toContain("from '../src/index.js'");
    writeFileSync(join(app, 'recent-trades.ts'), example.replace("'../src/index.js'", "'@dcledger/sdk'"));
    writeFileSync(join(app, 'json-content-type.ts'), JSON_CONTENT_TYPE);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          strict: true,
          // The shipped declarations are checked too, as a user's build would.
          skipLibCheck: false,
          outDir: 'out',
        },
        include: ['recent-trades.ts', 'json-content-type.ts'],
      }),
    );
    const compiled = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app }).catch(
      (error: { stdout?: string }) => {
        throw new Error(`the installed SDK does not type-check:\n${error.stdout ?? String(error)}`);
      },
    );
    expect(compiled.stdout).toBe('');

    if (!ctx) return; // without the shared data there is no server to run the example against
    const account = await addAccount(ctx.store, ctx.clock);
    const { stdout: printed } = await run(
      process.execPath,
      [join(app, 'out', 'recent-trades.js'), 'Nancy Pelosi'],
      {
        cwd: app,
        env: { ...process.env, DCLEDGER_URL: baseUrl, DCLEDGER_API_KEY: account.key.api_key },
      },
    );
    const lines = printed.trim().split('\n');
    const summary = /^Nancy Pelosi: (\d+) trades$/.exec(lines[lines.length - 1] ?? '');
    expect(Number(summary?.[1])).toBeGreaterThan(0);
    expect(Number(summary?.[1])).toBe(lines.length - 1);
  }, 600_000);
});
