// `npm run bench -- search-build`: the semantic-search index built from nothing, stage by stage, on
// the tests' real-data fixture (the shared data sets loaded and enriched as test/build-fixture.ts
// loads them): on SQLite, and on PostgreSQL too when DCLEDGER_TEST_DATABASE_URL names a server. The
// stages are the engine's own (its progress reports); each database is built in a scratch file or
// database of its own and dropped at the end. What `serve`'s warm-up does on a database that has
// no index yet, without the API beside it.

import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTestSettings } from '../src/config/test-settings.js';
import { countSearchDocuments } from '../src/storage/repositories/search-vectors.js';
import { requireDataDir } from '../src/test-support/data-dir.js';
import {
  createFixtureStoreAt,
  dropFixture,
  type FixtureLocation,
  uniqueName,
} from '../src/test-support/database.js';
import { FIXTURE_NOW, indexForSearch, loadRealData } from '../src/test-support/real-data.js';
import { machine } from './report.js';

interface Build {
  dialect: string;
  documents: number;
  stages: Array<{ stage: string; seconds: number }>;
  total: number;
}

async function buildOn(location: FixtureLocation, dataDir: string): Promise<Build> {
  const store = await createFixtureStoreAt(location);
  try {
    process.stdout.write(`search-build: loading the fixture's data on ${location.kind}...\n`);
    await loadRealData(store.db, dataDir);
    process.stdout.write(`search-build: building the index on ${location.kind}...\n`);
    const stages: Build['stages'] = [];
    let current: string | undefined;
    let since = Date.now();
    const close = () => {
      const now = Date.now();
      if (current !== undefined) stages.push({ stage: current, seconds: (now - since) / 1000 });
      since = now;
    };
    const started = Date.now();
    await indexForSearch(store.db, FIXTURE_NOW, (stage) => {
      if (stage === current) return;
      close();
      current = stage;
    });
    close();
    return {
      dialect: location.kind === 'postgres' ? 'PostgreSQL' : 'SQLite',
      documents: await countSearchDocuments(store.db),
      stages,
      total: (Date.now() - started) / 1000,
    };
  } finally {
    await store.close();
    await dropFixture(location);
  }
}

export async function runSearchBuildBench(): Promise<string> {
  const dataDir = requireDataDir();
  const loadAtStart = loadavg()[0] ?? 0;
  const locations: FixtureLocation[] = [
    { kind: 'sqlite', file: join(mkdtempSync(join(tmpdir(), 'dcledger-bench-search-')), 'bench.db') },
  ];
  if (readTestSettings().postgresUrl)
    locations.push({ kind: 'postgres', database: uniqueName('dcbench_search') });
  const builds: Build[] = [];
  for (const location of locations) builds.push(await buildOn(location, dataDir));
  const stageNames = [...new Set(builds.flatMap((build) => build.stages.map((one) => one.stage)))];
  const cell = (build: Build, stage: string) => {
    const seconds = build.stages
      .filter((one) => one.stage === stage)
      .reduce((sum, one) => sum + one.seconds, 0);
    return seconds.toFixed(2);
  };
  const header = `| stage (up to the next one's first report) | ${builds.map((build) => `${build.dialect} s`).join(' | ')} |`;
  const rows = stageNames.map(
    (stage) => `| ${stage} | ${builds.map((build) => cell(build, stage)).join(' | ')} |`,
  );
  return `## Building the search index from nothing (\`bench/search-build.ts\`)

Command: \`${readTestSettings().postgresUrl ? 'DCLEDGER_TEST_DATABASE_URL=postgres://… ' : ''}npm run bench -- search-build\`.
Machine: ${machine()}; load average (1 min) ${loadAtStart.toFixed(2)} at the start, ${(loadavg()[0] ?? 0).toFixed(2)} at the end.

The tests' real-data fixture (${builds.map((build) => `${build.documents.toLocaleString('en-US')} documents on ${build.dialect}`).join(', ')}),
its semantic-search index built by the engine as \`serve\`'s warm-up builds it on a database without one,
alone in this process. Each stage lasts from its first progress report to the next stage's.

${header}
|---|${builds.map(() => '---:').join('|')}|
${rows.join('\n')}
| **whole build** | ${builds.map((build) => `**${build.total.toFixed(1)}**`).join(' | ')} |
`;
}
