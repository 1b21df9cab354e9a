// `npm run bench [-- <section>...]`: runs the benchmark sections (all by default) and writes
// each one's results into its own part of BENCHMARKS.md, between markers, leaving the others.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../src/test-support/data-dir.js';
import { runAssistantBench } from './assistant.js';
import { runAssistantModelBench } from './assistant-model.js';
import { runBackfillBench } from './backfill.js';
import { runClusterBench } from './cluster.js';
import { runColdStartBench } from './cold-start.js';
import { runEnrichBenchmark } from './enrich.js';
import { runFreshnessBench } from './freshness.js';
import { runHttpBench } from './http.js';
import { runHttpPgBench } from './http-pg.js';
import { runLegislationBench } from './legislation.js';
import { runOcrBench } from './ocr.js';
import { runOcrApiBench } from './ocr-api.js';
import { runPricesBench } from './prices.js';
import { runRecordsBench } from './records.js';
import { replaceSection } from './report.js';
import { runScaleBench, runScaleIngestBench, runScalePgBench } from './scale.js';
import { runSearchBench } from './search.js';
import { runSearchBuildBench } from './search-build.js';
import { runSecBench } from './sec.js';
import { runUnderLoadBench } from './under-load.js';
import { runWebhooksBench } from './webhooks.js';

// The benches measure the OCR engine's own work: never answers kept from an earlier read (the
// processes and threads they start take this environment).
delete process.env.DCLEDGER_OCR_READINGS_DIR;

/** Each section returns its Markdown; add a line here to add a benchmark. */
const SECTIONS: Record<string, () => Promise<string>> = {
  http: runHttpBench,
  'http-pg': runHttpPgBench,
  enrich: runEnrichBenchmark,
  webhooks: runWebhooksBench,
  records: runRecordsBench,
  sec: runSecBench,
  legislation: runLegislationBench,
  cluster: runClusterBench,
  search: runSearchBench,
  'search-build': runSearchBuildBench,
  assistant: runAssistantBench,
  'assistant-model': runAssistantModelBench,
  ocr: runOcrBench,
  'ocr-api': runOcrApiBench,
  prices: runPricesBench,
  'under-load': runUnderLoadBench,
  freshness: runFreshnessBench,
  backfill: runBackfillBench,
  'cold-start': runColdStartBench,
  scale: runScaleBench,
  'scale-pg': runScalePgBench,
  'scale-ingest': runScaleIngestBench,
};

const FILE = join(repoRoot, 'BENCHMARKS.md');
const HEADER =
  '# Benchmarks\n\nProduced by `npm run bench`; each section names the command that produced it.\n';

const requested = process.argv.slice(2).filter((argument) => !argument.startsWith('-'));
// `cluster`, `http-pg` and `scale-pg` need a PostgreSQL server (DCLEDGER_TEST_DATABASE_URL), `freshness` runs
// `serve` for minutes against the replay server (`backfill` too, until it has read every recorded
// document), `ocr` reads 43 scanned pages (`ocr-api` too, through `serve`), `cold-start` waits for
// `serve` to build its whole search index, `scale` builds a database of ten times the data (`scale-ingest` reuses its files),
// `search-build` loads the tests' fixture once per database, `assistant-model` needs a model provider or a
// recording of one: they run when named only.
const ON_REQUEST = new Set([
  'assistant-model',
  'cluster',
  'http-pg',
  'ocr',
  'ocr-api',
  'freshness',
  'backfill',
  'cold-start',
  'scale',
  'scale-pg',
  'scale-ingest',
  'search-build',
]);
const names =
  requested.length > 0 ? requested : Object.keys(SECTIONS).filter((name) => !ON_REQUEST.has(name));
for (const name of names) {
  const section = SECTIONS[name];
  if (!section) {
    console.error(`unknown benchmark section "${name}" (known: ${Object.keys(SECTIONS).join(', ')})`);
    process.exit(2);
  }
  const body = await section();
  const document = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  writeFileSync(FILE, replaceSection(document, name, body));
  console.log(`[bench] ${name}: written to BENCHMARKS.md`);
}
