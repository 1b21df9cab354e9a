// Builds, once per run, a migrated empty database and the real-data fixture database (with its
// semantic-search index built); each `openTestStore()` works on its own copy of one of them.
import type { TestProject } from 'vitest/node';
import { readTestSettings } from '../src/config/test-settings.js';
import { findDataDir, missingDataOutcome } from '../src/test-support/data-dir.js';
import { createFixtureStore, type FixtureLocation, testDialect } from '../src/test-support/database.js';
import { indexForSearch, loadRealData } from '../src/test-support/real-data.js';

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
  drops: Array<() => Promise<void>>;
}

// vitest runs this setup for each project of vitest.config.ts (isolated and shared-modules), each
// through a module instance of its own: the one build of a run is kept on the vitest process itself.
const BUILT = Symbol.for('dcledger.test.run-databases');
type WithBuilt = typeof globalThis & { [BUILT]?: Promise<RunDatabases> };

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
  if (!dataDir) return { dataDir, emptyTemplate: empty.location, fixture: null, drops };
  const started = Date.now();
  const fixture = await createFixtureStore();
  await loadRealData(fixture.store.db, dataDir);
  // Once here rather than at the first question of every file that searches.
  await indexForSearch(fixture.store.db);
  await fixture.store.close();
  drops.push(fixture.drop);
  console.log(
    `[dcledger tests] ${testDialect()} real-data fixture built in ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
  return { dataDir, emptyTemplate: empty.location, fixture: fixture.location, drops };
}

/** Runs once every project's files have ended: the first project's teardown drops the databases. */
export async function teardown(): Promise<void> {
  const host = globalThis as WithBuilt;
  const built = host[BUILT];
  host[BUILT] = undefined;
  if (!built) return;
  for (const drop of (await built).drops) await drop();
}
