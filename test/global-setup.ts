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

const drops: Array<() => Promise<void>> = [];

export async function setup(project: TestProject): Promise<void> {
  const dataDir = findDataDir();
  project.provide('dataDir', dataDir ?? null);
  if (!dataDir) {
    const outcome = missingDataOutcome(readTestSettings().ci);
    if (outcome.fail) throw new Error(`[dcledger tests] ${outcome.message}`);
    console.warn(`\n[dcledger tests] ${outcome.message}\n`);
  }
  const empty = await createFixtureStore();
  await empty.store.close();
  drops.push(empty.drop);
  project.provide('emptyTemplate', empty.location);
  if (!dataDir) {
    project.provide('fixture', null);
    return;
  }
  const started = Date.now();
  const fixture = await createFixtureStore();
  await loadRealData(fixture.store.db, dataDir);
  // Once here rather than at the first question of every file that searches.
  await indexForSearch(fixture.store.db);
  await fixture.store.close();
  drops.push(fixture.drop);
  project.provide('fixture', fixture.location);
  console.log(
    `[dcledger tests] ${testDialect()} real-data fixture built in ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
}

export async function teardown(): Promise<void> {
  for (const drop of drops) await drop();
}
