// `npm run bench -- assistant`: the share of the labelled questions (bench/assistant/questions.json)
// the assistant answers right without a model, per shape and split, on the real-data fixture the
// API tests read, at its clock. Each expected answer is resolved through the REST API from the
// query the question file writes down (bench/assistant/judged.json, rewritten by each run), then
// compared with the chat's answer (bench/assistant/score.ts says what counts as right).
// BENCH_ASSISTANT_DB=<file> keeps the database there and reuses it (the build takes a minute or two).
// Questions marked `scenario: "timing"` are asked of a copy of the fixture with the CONSTRUCTED timing
// scenario added (src/test-support/timing-scenario.ts), kept beside it; the others of the fixture.
// BENCH_ASSISTANT_SEALED=13[,14] leaves those batches out (not asked, not scored), so a batch written
// ahead can stay unseen while the router is changed, and be measured once afterwards.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../src/accounts/admin.js';
import { buildApp } from '../src/app.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { FIXTURE_NOW, loadRealData } from '../src/test-support/real-data.js';
import { loadTimingScenario } from '../src/test-support/timing-scenario.js';
import {
  type ChatAnswer,
  type Fetch,
  judgeAnswer,
  type LabelledQuestion,
  resolveExpected,
} from './assistant/score.js';
import { machine } from './report.js';

const DIR = join(repoRoot, 'bench', 'assistant');

export function readQuestions(): LabelledQuestion[] {
  return (JSON.parse(readFileSync(join(DIR, 'questions.json'), 'utf8')) as { questions: LabelledQuestion[] })
    .questions;
}

/** The batches BENCH_ASSISTANT_SEALED names: kept out of a run until they are measured. */
function sealedBatches(): Set<number> {
  return new Set(
    (process.env.BENCH_ASSISTANT_SEALED ?? '')
      .split(',')
      .filter((part) => part.trim() !== '')
      .map(Number),
  );
}

/** Asks the questions of one database at the fixture's clock; what the API expects and what was wrong. */
async function askAll(file: string, questions: readonly LabelledQuestion[]) {
  const store = openStore({ kind: 'sqlite', file });
  await migrateToLatest(store.db);
  const account = await createAccount(
    store.db,
    {
      email: `assistant-bench-${Date.now()}@example.org`,
      plan: 'max',
      credits: 100_000_000,
      dailyCap: 1_000_000_000,
      paid: true,
    },
    FIXTURE_NOW,
  );
  const key = account.key.api_key;
  // The clock moves a second a request from noon of the fixture's day: every answer is of that
  // day, and the key's per-minute limit (which a clock standing still never resets) is not
  // what the bench measures.
  let now = FIXTURE_NOW.getTime();
  const app = await buildApp({ db: store.db, dialect: 'sqlite', clock: () => new Date(now) });
  const fetch: Fetch = async (url) => {
    now += 1000;
    const response = await app.inject({ method: 'GET', url, headers: { 'dc-api-key': key } });
    return { status: response.statusCode, body: response.json() };
  };
  // The first semantic search indexes the database; not part of any question.
  await fetch('/v1/semantic-search?q=warm%20up');
  const judged: Record<string, unknown>[] = [];
  const results: { question: string; split: string; batch: number; shape: string; wrong: string[] }[] = [];
  for (const item of questions) {
    const expected = await resolveExpected(fetch, item.expect);
    // For review: how many trades the API answers, the first of them in the order that matters.
    judged.push({
      question: item.question,
      split: item.split,
      shape: item.expect.shape,
      trades: expected.ids.length,
      first_trades: expected.ids.slice(0, 20),
      members: expected.members,
      facts: expected.facts,
    });
    const { status, body } = await fetch(`/chad/chat?q=${encodeURIComponent(item.question)}`);
    const wrong =
      status === 200 ? judgeAnswer(item.expect, expected, body as ChatAnswer) : [`chat answered ${status}`];
    results.push({
      question: item.question,
      split: item.split,
      batch: item.batch ?? 1,
      // The constructed scenario's questions are counted apart from the fixture's.
      shape: item.scenario ? `${item.expect.shape} (constructed)` : item.expect.shape,
      wrong,
    });
    if (process.env.BENCH_VERBOSE || wrong.length > 0)
      console.log(
        `[bench] assistant: ${wrong.length === 0 ? 'right' : 'WRONG'} "${item.question}" ${wrong.join('; ')}`,
      );
  }
  await app.close();
  await store.close();
  return { judged, results };
}

export async function runAssistantBench(): Promise<string> {
  const sealed = sealedBatches();
  const questions = readQuestions().filter((item) => !sealed.has(item.batch ?? 1));
  const kept = process.env.BENCH_ASSISTANT_DB;
  const dir = kept ? undefined : mkdtempSync(join(tmpdir(), 'dcledger-assistant-bench-'));
  const file = kept ?? join(dir ?? '.', 'bench.db');
  try {
    if (!existsSync(file)) {
      const started = Date.now();
      const store = openStore({ kind: 'sqlite', file });
      await migrateToLatest(store.db);
      await loadRealData(store.db, requireDataDir());
      await store.close();
      console.log(`[bench] assistant: fixture built in ${((Date.now() - started) / 1000).toFixed(0)}s`);
    }
    const scenarioFile = `${file}.timing-scenario`;
    if (!existsSync(scenarioFile)) {
      copyFileSync(file, scenarioFile);
      const store = openStore({ kind: 'sqlite', file: scenarioFile });
      await loadTimingScenario(store.db);
      await store.close();
    }
    const judged: Record<string, unknown>[] = [];
    const results: { question: string; split: string; batch: number; shape: string; wrong: string[] }[] = [];
    for (const [dbFile, asked] of [
      [file, questions.filter((item) => item.scenario === undefined)],
      [scenarioFile, questions.filter((item) => item.scenario === 'timing')],
    ] as const) {
      const answered = await askAll(dbFile, asked);
      judged.push(...answered.judged);
      results.push(...answered.results);
    }
    writeFileSync(join(DIR, 'judged.json'), `${JSON.stringify(judged, null, 1)}\n`);

    const shapes = [...new Set(results.map((result) => result.shape))];
    const share = (rows: typeof results) =>
      rows.length === 0
        ? '–'
        : `${(rows.filter((row) => row.wrong.length === 0).length / rows.length).toFixed(2)} (${rows.filter((row) => row.wrong.length === 0).length}/${rows.length})`;
    // The test split of the newest batch, written after the router was tuned on the failures of
    // the ones before: the one column no tuning had seen when it was first measured.
    const newest = Math.max(...results.map((r) => r.batch));
    const row = (label: string, of: typeof results) =>
      `| ${label} | ${share(of.filter((r) => r.split === 'dev'))} | ${share(of.filter((r) => r.split === 'test'))} | ${share(of.filter((r) => r.split === 'test' && r.batch === newest))} | ${share(of)} |`;
    const table = [
      `| shape | dev | test | test, batch ${newest} | all |`,
      '|---|---|---|---|---|',
      ...shapes.map((shape) =>
        row(
          shape,
          results.filter((r) => r.shape === shape),
        ),
      ),
      row('**all**', results),
    ];
    const failures = results
      .filter((r) => r.wrong.length > 0)
      .map((r) => `- (${r.split}, batch ${r.batch}) "${r.question}": ${r.wrong.slice(0, 2).join('; ')}`);
    return [
      '## Assistant without a model: labelled questions',
      '',
      `\`BENCH_ASSISTANT_DB=<file> npm run bench -- assistant\` (${machine()}, load ${loadavg()[0]?.toFixed(1)}). ` +
        `${questions.length} questions of bench/assistant/questions.json${sealed.size > 0 ? ` (batch ${[...sealed].join(', ')} sealed: left out)` : ''} on the real-data fixture the API tests read, ` +
        'clock 2026-06-01; each expected answer resolved through the REST API from the query the file writes down ' +
        '(bench/assistant/judged.json). Right: every cited trade among the expected ones and as many as the answer shows ' +
        '(the newest for a member, the largest brackets for biggest trades, every member named for who bought/sold), ' +
        'the facts the route computed stated, every trade line cited by id, no number no tool returned.',
      '',
      ...table,
      '',
      ...(failures.length > 0 ? ['Answered wrong:', '', ...failures] : ['Every question answered right.']),
    ].join('\n');
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
