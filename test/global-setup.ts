// Builds, once per run, a migrated empty database and the real-data fixture database (with its
// semantic-search index built); each `openTestStore()` works on its own copy of one of them. The
// fixture is built in a process of its own while the files that do not read it run (the sequencer
// in vitest.config.ts starts those first); a copy of it waits until it is built.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { readTestSettings } from '../src/config/test-settings.js';
import { ensureCompiledBuild } from '../src/test-support/compiled-build.js';
import { findDataDir, missingDataOutcome } from '../src/test-support/data-dir.js';
import {
  createFixtureStore,
  dropFixture,
  type FixtureLocation,
  newFixtureLocation,
} from '../src/test-support/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    fixture: FixtureLocation | null;
    emptyTemplate: FixtureLocation;
    dataDir: string | null;
  }
}

interface RunDatabases {
  dataDir: string | null;
  emptyTemplate: FixtureLocation;
  fixture: FixtureLocation | null;
  /** The fixture's build while it runs. */
  builder: ChildProcess | null;
  drops: Array<() => Promise<void>>;
}

// vitest runs this setup for each project of vitest.config.ts (isolated and shared-modules), each
// through a module instance of its own: the one build of a run is kept on the vitest process itself.
const BUILT = Symbol.for('dcledger.test.run-databases');
type WithBuilt = typeof globalThis & { [BUILT]?: Promise<RunDatabases> };

// The OCR engine's readings are kept for the run's other files that read the same scans (and for
// the next run: node_modules/.cache goes with a fresh install). A reading is only taken for the very
// same cell image read the very same way (src/ingest/ocr/kept-readings.ts); the files that prove
// the engine itself unset it. The test files' processes are started after this setup, with its
// environment.
process.env.DCLEDGER_OCR_READINGS_DIR ??= fileURLToPath(
  new URL('../node_modules/.cache/dcledger/ocr-readings', import.meta.url),
);

// The threads and child processes the tests start (and the fixture's build) run the compiled build
// of these sources instead of loading their TypeScript through tsx, which costs each seconds of CPU
// (src/test-support/compiled-build.ts): compiled here first when a source changed.
if (process.env.DCLEDGER_THREADS_FROM_BUILD === undefined && ensureCompiledBuild())
  process.env.DCLEDGER_THREADS_FROM_BUILD = '1';

export async function setup(project: TestProject): Promise<void> {
  const host = globalThis as WithBuilt;
  host[BUILT] ??= build();
  const built = await host[BUILT];
  project.provide('dataDir', built.dataDir);
  project.provide('emptyTemplate', built.emptyTemplate);
  project.provide('fixture', built.fixture);
}

async function build(): Promise<RunDatabases> {
  const dataDir = findDataDir() ?? null;
  if (!dataDir) {
    const outcome = missingDataOutcome(readTestSettings().ci);
    if (outcome.fail) throw new Error(`[dcledger tests] ${outcome.message}`);
    console.warn(`\n[dcledger tests] ${outcome.message}\n`);
  }
  const drops: Array<() => Promise<void>> = [];
  const empty = await createFixtureStore();
  await empty.store.close();
  drops.push(empty.drop);
  if (!dataDir) return { dataDir, emptyTemplate: empty.location, fixture: null, builder: null, drops };
  const markers = mkdtempSync(join(tmpdir(), 'dcledger-fixture-build-'));
  const location = newFixtureLocation();
  const ready = join(markers, 'built');
  drops.push(() => dropFixture(location));
  drops.push(async () => rmSync(markers, { recursive: true, force: true }));
  const builder = startBuild(location, ready, dataDir);
  return { dataDir, emptyTemplate: empty.location, fixture: { ...location, ready }, builder, drops };
}

/**
 * Builds the fixture in its own process (test/build-fixture.ts), then writes its `ready` marker
 * (once the process has exited: a PostgreSQL template must have no connection open when copied)
 * or, when the build fails, `<ready>.failed` with the end of what it printed on stderr.
 */
function startBuild(location: FixtureLocation, ready: string, dataDir: string): ChildProcess {
  const script = fileURLToPath(new URL('./build-fixture.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(location), dataDir], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    errors = (errors + chunk.toString()).slice(-4000);
  });
  child.on('exit', (code, signal) => {
    if (code === 0) writeFileSync(ready, new Date().toISOString());
    else
      writeFileSync(
        `${ready}.failed`,
        `the real-data fixture was not built (${signal ?? `exit ${code}`}):\n${errors}`,
      );
  });
  return child;
}

/** Runs once every project's files have ended: the first project's teardown drops the databases. */
export async function teardown(): Promise<void> {
  const host = globalThis as WithBuilt;
  const built = host[BUILT];
  host[BUILT] = undefined;
  if (!built) return;
  const { builder, drops } = await built;
  // A run of files that never read the fixture can end before it is built.
  if (builder && builder.exitCode === null && builder.signalCode === null) {
    const exited = new Promise((resolve) => builder.once('exit', resolve));
    builder.kill();
    await exited;
  }
  for (const drop of drops) await drop();
}
