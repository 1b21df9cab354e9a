import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Tests that never open a database (parsers, pure rules), and the few that open one but check
// nothing a database changes (each says why): on the PostgreSQL run they would only repeat the
// SQLite run, so that run leaves them out.
const DATABASE_FREE = [
  'src/domain/**',
  'src/ingest/sources/**',
  'bench/accuracy/**',
  'src/ingest/fetch/**',
  'src/analytics/portfolio.test.ts',
  'src/analytics/trade-signals.test.ts',
  'src/market/company-files.test.ts',
  'src/market/ma.test.ts',
  'src/market/price-files.test.ts',
  'src/market/quality.test.ts',
  'src/market/windows.test.ts',
  'src/market/golden-hand.test.ts',
  'src/config.test.ts',
  'src/storage/repositories/trade-range.test.ts',
  'src/ingest/ocr/**',
  'src/cli/parse.test.ts',
  'src/ingest/fec/bulk.test.ts',
  'src/ingest/trade-sets/house-options.test.ts',
  'src/ingest/trade-sets/normalize-row.property.test.ts',
  'src/ingest/pipeline/connectors.test.ts',
  'src/ingest/pipeline/pairing.test.ts',
  'src/ingest/pipeline/run.test.ts',
  'src/ingest/pipeline/scheduler.test.ts',
  'src/analytics/clusters.test.ts',
  'src/analytics/overlap.test.ts',
  'src/accounts/price-table.test.ts',
  'src/market/company-links.test.ts',
  'src/market/company-match.test.ts',
  'src/market/tiingo.test.ts',
  'src/search/simd-dots.test.ts',
  'src/search/understand.test.ts',
  'src/webhooks/sender.test.ts',
  'src/webhooks/verify-boundary.test.ts',
  'src/webhooks/verify-rules.test.ts',
  'test/dependency-rule.test.ts',
  // Opens SQLite files of its own whatever the run's database.
  'src/storage/wal-checkpoints.test.ts',
  'src/services/assistant/intents.test.ts',
  'src/webhooks/address-guard.test.ts',
  'src/webhooks/retry.test.ts',
  'src/webhooks/secrets.test.ts',
  'src/webhooks/verify.test.ts',
  'src/webhooks/event-catalog.test.ts',
  'test/generated-docs.test.ts',
  // The README's quick starts run on SQLite, as the README says, whatever the run's database.
  'test/quickstart.test.ts',
  // These open no database either: the PDF reader's process, the replay server, route folders, the
  // vector scan, the Redis counters, the timing rule, the assistant's router over stub tools, the
  // engines field, the daily cap's rule, the data-directory check and the model bench's replay server.
  'src/ingest/pdf-worker.test.ts',
  'src/ingest/replay/withhold.test.ts',
  'src/http/route-folders.test.ts',
  'src/search/vector-scan.test.ts',
  'src/accounts/redis-rate-limit.test.ts',
  'src/analytics/suspicious-timing.test.ts',
  'src/services/assistant/router.test.ts',
  'test/engines.test.ts',
  'src/accounts/daily-cap.test.ts',
  'src/test-support/data-dir.test.ts',
  'src/test-support/compiled-build.test.ts',
  'bench/assistant/recording.test.ts',
  'bench/process.test.ts',
  // Pure rules too: the response schema helpers, LSA training on a thread, the search's time
  // slices, and the assistant's rows, offices and question slots.
  'src/resources/schema.test.ts',
  'src/search/lsa-training.test.ts',
  'src/search/turns.test.ts',
  'src/services/assistant/chat.test.ts',
  'src/services/assistant/offices.test.ts',
  'src/services/assistant/slots.test.ts',
  // Opens a database, but what it checks is the markup in a browser (axe, CSP, width): the API
  // calls its pages make are checked on both databases by their own routes' tests.
  'src/http/routes/ui/pages-audit.test.ts',
  // Likewise what a person does in Chromium: the account area's flow (its sign-up, keys, usage and
  // webhooks are checked on both databases by src/http/routes/account/ and src/webhooks/), and the
  // review queue's pages (its decisions stored and served on both by
  // src/ingest/pipeline/ocr-ingest.test.ts, rows added and filings settled by
  // src/ingest/pipeline/review-add.test.ts, through the same review service).
  'src/http/routes/ui/browser.test.ts',
  'src/http/routes/ui/review-page.test.ts',
  'src/http/routes/ui/review-filing-page.test.ts',
  // Likewise a client of the API, not the API: the explorer's pages against what the API answers
  // them, the typed SDK and its packed tarball, the Python client's pytest suite, and the OpenAPI
  // document. The routes they call are checked on both databases by their own tests.
  'src/http/routes/ui/explore-chart.test.ts',
  'test/sdk.test.ts',
  'test/sdk-pack.test.ts',
  'test/python-client.test.ts',
  'src/http/plugins/openapi-document.test.ts',
  // The command line in process, on a SQLite file of its own whatever the run's database.
  'src/cli/cli.test.ts',
];

// The slowest files (20 s or more on the 2-core CI machine), in the order they start, for each run: the two
// runs take different files (DATABASE_FREE, the PostgreSQL-only cluster) and the same file takes
// different times on each. A long file that starts last leaves the other worker idle until it ends,
// and vitest's own order (by the durations of the previous run in its cache, by file size without
// one) puts some of these late: a fresh clone has no cache, and the PostgreSQL run reads the SQLite
// run's durations.
//
// The files that read the same scans by OCR come one after another, not side by side: the first
// reads each cell with the engine and keeps the answer (test/global-setup.ts), the next takes it.
// `dcledger parse` reads 8220834 and the OGE 278-T whole first; while it runs, the other worker
// takes files that read no scan; the review page, the OCR ingest and the scanned-rows tests (the
// same pages) follow it. On the PostgreSQL run every scan's answers are kept from the SQLite run.
const SLOW_FIRST_SQLITE = [
  'src/cli/parse.test.ts',
  'src/ingest/pipeline/side-by-side.test.ts',
  'src/market/price-refresh.test.ts',
  'src/http/routes/ui/browser.test.ts',
  'src/http/routes/ui/review-page.test.ts',
  'src/ingest/pipeline/ocr-ingest.test.ts',
  'src/ingest/ocr/scanned-rows.scan.test.ts',
  'src/ingest/pipeline/oge-ocr-ingest.test.ts',
  'src/ingest/ocr/oge-form.scan.test.ts',
  'src/ingest/trade-sets/import.test.ts',
  'src/ingest/ocr/index.test.ts',
  // Read the fixture: they start once the files above and the other fixture-free files have.
  'src/http/routes/ui/pages-audit.test.ts',
  'src/ingest/pipeline/ingest.test.ts',
  'src/ingest/pipeline/resume.test.ts',
  'src/http/fuzz.test.ts',
  'src/analytics/enrich.test.ts',
  'src/analytics/stored-analytics.test.ts',
  'src/cli/enrichment-processes.test.ts',
  'src/http/routes/mcp/mcp.test.ts',
  'src/http/routes/chat/chat.test.ts',
  'src/http/plugins/metering.test.ts',
  'src/webhooks/run-id.test.ts',
  'src/services/trades-json.test.ts',
  'bench/assistant/score.test.ts',
  'src/http/plugins/csv.test.ts',
  'src/market/ingest-fields.test.ts',
];
const SLOW_FIRST_POSTGRES = [
  'test/cluster.test.ts',
  'src/services/companies-stored.test.ts',
  'src/analytics/stored-analytics.test.ts',
  'src/analytics/enrich.test.ts',
  'src/market/price-refresh.test.ts',
  'src/http/fuzz.test.ts',
  'src/ingest/pipeline/ingest.test.ts',
  'src/http/routes/conflict/precomputed.test.ts',
  'src/ingest/pipeline/side-by-side.test.ts',
  'src/market/ingest-fields.test.ts',
  'src/ingest/pipeline/resume.test.ts',
  'src/cli/enrichment-processes.test.ts',
  'src/ingest/trade-sets/import.test.ts',
  'src/market/provider.test.ts',
  'src/ingest/pipeline/ocr-ingest.test.ts',
  'src/services/trades-json.test.ts',
  'src/http/routes/mcp/mcp.test.ts',
  'src/ingest/pipeline/oge-ocr-ingest.test.ts',
  'src/http/routes/chat/chat.test.ts',
  'src/http/plugins/metering.test.ts',
  'src/webhooks/run-id.test.ts',
  'bench/assistant/score.test.ts',
  'src/http/plugins/csv.test.ts',
];
const SLOW_FIRST = process.env.DCLEDGER_TEST_DATABASE_URL ? SLOW_FIRST_POSTGRES : SLOW_FIRST_SQLITE;

// The real-data fixture is built in the background while the run starts (test/global-setup.ts):
// the files that read it (a copy of it waits until it is built) start after those that do not.
const READS_FIXTURE = /openFixtureApp|inject\('fixture'\)|realDataAvailable|live-server/;

function readsFixture(file: string): boolean {
  return READS_FIXTURE.test(readFileSync(file, 'utf8'));
}

/**
 * Starts the files that do not read the fixture first, then those that do; within each, the
 * SLOW_FIRST files first, in that order; the rest follow in vitest's own order.
 */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ranks = new Map<string, number>();
    const rank = (file: TestSpecification) => {
      let known = ranks.get(file.moduleId);
      if (known === undefined) {
        const index = SLOW_FIRST.indexOf(relative(file.project.config.root, file.moduleId));
        known = (readsFixture(file.moduleId) ? SLOW_FIRST.length + 1 : 0) + (index < 0 ? SLOW_FIRST.length : index);
        ranks.set(file.moduleId, known);
      }
      return known;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Test files that share their worker's loaded modules with the files run before them in that
// worker, instead of each loading the app's whole module graph again. Only files that change no
// process-wide state belong here (no environment variables, working directory, patched globals or
// module mocks); each has its own database and app.
const SHARED_MODULES = [
  'src/http/**/*.test.ts',
  'src/services/**/*.test.ts',
  'src/accounts/**/*.test.ts',
  'src/search/**/*.test.ts',
  // Not compiled-queries.test.ts: it counts the process's named statements, which are capped per
  // process and so taken by the files run before it in a shared worker.
  'src/storage/!(compiled-queries).test.ts',
  'src/storage/*/**/*.test.ts',
  'src/analytics/**/*.test.ts',
  'src/market/**/*.test.ts',
  // Not reseal.test.ts: it runs the command line under stubbed environment variables.
  'src/webhooks/!(reseal).test.ts',
  'src/domain/**/*.test.ts',
  'src/resources/**/*.test.ts',
  // Not ocr-ingest.test.ts nor scheduler.test.ts: they set environment variables.
  'src/ingest/**/!(ocr-ingest|scheduler).test.ts',
];

const ALL_TESTS = ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'];

export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, ...(process.env.DCLEDGER_TEST_DATABASE_URL ? DATABASE_FREE : [])],
    projects: [
      { extends: true, test: { name: 'isolated', include: ALL_TESTS, exclude: SHARED_MODULES } },
      { extends: true, test: { name: 'shared-modules', include: SHARED_MODULES, isolate: false } },
    ],
    // Each project runs it: test/global-setup.ts builds the fixture once per run all the same.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    // A file's first copy of the real-data fixture waits in its beforeAll until the fixture is built
    // (minutes on PostgreSQL when the machine is loaded).
    hookTimeout: 600_000,
    pool: 'forks',
    // One worker per core. vitest's default for a run is one fewer, which on the 2-core CI machine
    // runs the files one at a time while the worker waits on PostgreSQL, child processes and
    // Chromium. Each file has databases, ports and temporary directories of its own.
    maxWorkers: '100%',
    sequence: { sequencer: SlowFirstSequencer },
    // Each module's transform kept on disk (node_modules/.experimental-vitest-cache, keyed by the
    // file's content and the config): a run takes the transforms of the runs before it, so CI's
    // PostgreSQL run takes its SQLite run's instead of transforming the same modules again.
    experimental: { fsModuleCache: true },
  },
});
