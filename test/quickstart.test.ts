// The README's quick starts, run as written, so a quick start that stops working fails CI.
//
// The FIRST quick start runs in full: every `npx dcledger` command in this process (as
// `src/test-support/cli.ts` runs the CLI) on a temporary SQLite database in a temporary working
// directory, `serve &` as the same app `serve` builds listening on 127.0.0.1 (without its ingest
// schedule, which would read the real sites), and every curl as an HTTP request to it that must
// answer 200 with data.
//
// The OTHER quick starts are heavier (all the price files; the replay one ingests 444 documents):
// each of their commands is checked against the CLI's command tree (command, options, operands)
// and the data paths they name must exist; `import legislators`, `accounts`, `keys`, `credits`
// and `migrate` really run, `replay-server &` and `serve &` really start, and every curl must
// answer 200 (on a database the skipped imports left without trades), so a wrong route,
// parameter or plan still fails.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { App } from '../src/http/types.js';
import { ReplayServer } from '../src/ingest/replay/server.js';
import { buildCli } from '../src/main.js';
import { openMigratedStore } from '../src/storage/open.js';
import { runCli } from '../src/test-support/cli.js';
import { findDataDir, repoRoot } from '../src/test-support/data-dir.js';
import {
  checkCliArgs,
  parseStep,
  type QuickStart,
  readQuickStarts,
  type Step,
} from '../src/test-support/quickstart.js';
import { createWebhookRuntime } from '../src/webhooks/runtime.js';

const README = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const QUICK_STARTS = readQuickStarts(README);
const dataDir = findDataDir();

/**
 * Commands cheap enough to run in every quick start (the members, so that member routes answer);
 * the rest run in the first one only.
 */
const ALWAYS_RUN = new Set(['accounts', 'keys', 'credits', 'migrate', 'import legislators']);
const DATA_PREFIX = '../shared/data';

interface Running {
  close(): Promise<void>;
}

class QuickStartRun {
  private readonly started: Running[] = [];
  /** Addresses the quick start names, mapped to where the test's servers listen. */
  private readonly hosts = new Map<string, string>();
  private apiKey: string | undefined;
  readonly log: string[] = [];

  constructor(
    private readonly data: string,
    private readonly full: boolean,
  ) {}

  /** The words of a line as they apply here: data paths and server addresses made real. */
  private localize(word: string): string {
    let result = word.startsWith(DATA_PREFIX) ? this.data + word.slice(DATA_PREFIX.length) : word;
    for (const [from, to] of this.hosts) result = result.split(from).join(to);
    return result;
  }

  async run(step: Step): Promise<void> {
    this.log.push(step.line);
    switch (step.kind) {
      case 'npm-install':
        return; // the test runs from an installed checkout
      case 'env':
        for (const [name, value] of Object.entries(step.vars)) process.env[name] = value;
        return;
      case 'cli':
        return this.cli(
          step.args.map((word) => this.localize(word)),
          step.background,
          step.line,
        );
      case 'curl':
        return this.curl(step);
    }
  }

  private async cli(args: string[], background: boolean, line: string): Promise<void> {
    const path = checkCliArgs(buildCli(), args);
    const [command] = path;
    for (const word of args) {
      if (word.startsWith(this.data)) expect(existsSync(word), `${line}: ${word} does not exist`).toBe(true);
    }
    if (background) return this.startServer(command, args, line);
    if (!this.full && !ALWAYS_RUN.has(command ?? '') && !ALWAYS_RUN.has(path.join(' '))) return;
    const outcome = await runCli(...args);
    expect(outcome.code, `${line}\n${outcome.err}`).toBe(0);
    if (command === 'accounts' && args[1] === 'create') {
      const created = JSON.parse(outcome.out) as { api_key?: string };
      expect(created.api_key).toMatch(/^dc_/);
      this.apiKey = created.api_key;
    }
  }

  private async startServer(command: string | undefined, args: string[], line: string): Promise<void> {
    if (command === 'replay-server') {
      const dataDirIndex = args.indexOf('--data-dir');
      const server = new ReplayServer({ dataDir: args[dataDirIndex + 1] ?? '', host: '127.0.0.1', port: 0 });
      const url = await server.start();
      const port = args[args.indexOf('--port') + 1];
      this.hosts.set(`http://127.0.0.1:${port}`, url);
      this.started.push(server);
      return;
    }
    if (command === 'serve') {
      const config = loadConfig();
      const store = await openMigratedStore(config.database);
      const webhooks = createWebhookRuntime(config.webhooks);
      const app: App = await buildApp({
        db: store.db,
        dialect: store.dialect,
        clock: () => new Date(),
        publicUrl: config.publicUrl,
        webhooks,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      this.hosts.set(`http://localhost:${config.port}`, `http://127.0.0.1:${port}`);
      this.started.push({
        close: async () => {
          await app.close();
          await webhooks.sender.close();
          await store.close();
        },
      });
      return;
    }
    throw new Error(`the test does not know how to run this in the background: ${line}`);
  }

  private async curl(step: Extract<Step, { kind: 'curl' }>): Promise<void> {
    const url = this.localize(step.url);
    expect(url, `${step.line}: no server of this quick start listens there`).toMatch(
      /^http:\/\/127\.0\.0\.1:/,
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(step.headers)) {
      if (value === 'dc_...') {
        expect(this.apiKey, `${step.line}: no key was created before`).toBeDefined();
        headers[name] = this.apiKey ?? '';
      } else headers[name] = value;
    }
    const response = await fetch(url, { method: step.method, headers, body: step.body });
    const text = await response.text();
    expect(response.status, `${step.line}\n${text.slice(0, 500)}`).toBe(200);
    const body = JSON.parse(text) as unknown;
    if (this.full)
      expect(hasData(body), `${step.line}: the answer holds no data\n${text.slice(0, 500)}`).toBe(true);
  }

  async close(): Promise<void> {
    for (const running of this.started.reverse()) await running.close();
  }
}

/** An answer with rows: a non-empty array, or an object with a non-empty array in it. */
function hasData(body: unknown): boolean {
  if (Array.isArray(body)) return body.length > 0;
  if (typeof body !== 'object' || body === null) return false;
  return Object.values(body).some((value) => Array.isArray(value) && value.length > 0);
}

/** Puts process.env back to `snapshot` (process.env itself must stay the same object). */
function restoreEnv(snapshot: Record<string, string | undefined>): void {
  for (const name of Object.keys(process.env)) if (!(name in snapshot)) delete process.env[name];
  for (const [name, value] of Object.entries(snapshot)) if (value !== undefined) process.env[name] = value;
}

describe('the README quick starts', () => {
  const cwd = process.cwd();
  const env = { ...process.env };
  let clean: Record<string, string | undefined> = {};
  let workDir = '';

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'dcledger-quickstart-'));
    process.chdir(workDir);
    // The quick starts run on the default embedded database, as a newcomer's would.
    for (const name of Object.keys(process.env)) {
      const setting = ['DATABASE_URL', 'PORT', 'HOST'].includes(name) || name.startsWith('DCLEDGER_');
      if (setting && name !== 'DCLEDGER_DATA_DIR') delete process.env[name];
    }
    clean = { ...process.env };
  });

  afterAll(() => {
    process.chdir(cwd);
    restoreEnv(env);
    rmSync(workDir, { recursive: true, force: true });
  });

  it('the README has quick starts the test can read', () => {
    expect(QUICK_STARTS.length).toBeGreaterThanOrEqual(2);
    for (const quickStart of QUICK_STARTS) {
      expect(
        quickStart.steps.filter((step) => step.kind === 'curl').length,
        quickStart.heading,
      ).toBeGreaterThan(0);
    }
  });

  /** Runs a quick start in its own directory; the servers it started are stopped either way. */
  async function runQuickStart(quickStart: QuickStart, full: boolean): Promise<void> {
    process.chdir(mkdtempSync(join(workDir, 'quickstart-')));
    const run = new QuickStartRun(dataDir ?? '', full);
    try {
      for (const step of quickStart.steps) await run.run(step);
    } finally {
      await run.close();
      process.chdir(workDir);
      restoreEnv(clean);
    }
  }

  QUICK_STARTS.forEach((quickStart: QuickStart, index: number) => {
    const full = index === 0;
    it.skipIf(!dataDir)(
      `${full ? 'runs' : 'checks'} "${quickStart.heading}"`,
      () => runQuickStart(quickStart, full),
      300_000,
    );
  });

  it('fails a quick start whose key cannot reach the route it calls (a core key for positions)', async () => {
    const [quickStart] = readQuickStarts(
      [
        '## Quick start with the wrong plan',
        '```sh',
        'npx dcledger accounts create --email you@example.org --plan core',
        'npx dcledger serve &',
        "curl -H 'DC-API-Key: dc_...' 'http://localhost:8080/portfolio/nancy-pelosi/positions'",
        '```',
      ].join('\n'),
    );
    if (!quickStart) throw new Error('no quick start read');
    await expect(runQuickStart(quickStart, false)).rejects.toThrow(/expected 403 to be 200/);
  });

  it('refuses commands, options and shell it cannot run rather than skipping them', () => {
    const program = buildCli();
    expect(
      checkCliArgs(program, ['accounts', 'create', '--email', 'a@example.org', '--plan', 'pro']),
    ).toEqual(['accounts', 'create']);
    expect(() => checkCliArgs(program, ['accounts', 'create', '--email', 'a', '--bogus'])).toThrow(
      /no option --bogus/,
    );
    expect(() => checkCliArgs(program, ['accounts', 'create'])).toThrow(/needs --email/);
    expect(() => checkCliArgs(program, ['acounts', 'create'])).toThrow(/not a command/);
    expect(() => checkCliArgs(program, ['import', 'trades', 'a.json', 'b.json'])).toThrow(/operand/);
    expect(() => parseStep('npx dcledger enrich | tee log')).toThrow(/simple commands/);
    expect(() => parseStep('rm -rf var')).toThrow(/does not know how to run/);
    expect(() => parseStep('curl -H "DC-API-Key: $KEY" http://localhost:8080/trades')).toThrow(/expand/);
    expect(parseStep('npx dcledger serve --no-ingest &   # later')).toMatchObject({
      kind: 'cli',
      args: ['serve', '--no-ingest'],
      background: true,
    });
  });
});
