// What both assistant benches share: the fixture app they ask, the loop that resolves each question's
// expected answer through the REST API, asks /chad/chat and scores the answer (score.ts), and the
// table of the scores. `assistant` asks the router (no model); `assistant-model` asks the configured
// provider (or a replay of its recording) with the same questions, loop and scorer.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../../src/accounts/admin.js';
import { buildApp } from '../../src/app.js';
import type { ChatProvider } from '../../src/services/assistant/providers.js';
import { openStore } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { repoRoot, requireDataDir } from '../../src/test-support/data-dir.js';
import { FIXTURE_NOW, loadRealData } from '../../src/test-support/real-data.js';
import { loadTimingScenario } from '../../src/test-support/timing-scenario.js';
import { type ChatAnswer, type Fetch, judgeAnswer, type LabelledQuestion, resolveExpected } from './score.js';

export const ASSISTANT_DIR = join(repoRoot, 'bench', 'assistant');

export function readQuestions(): LabelledQuestion[] {
  return (
    JSON.parse(readFileSync(join(ASSISTANT_DIR, 'questions.json'), 'utf8')) as {
      questions: LabelledQuestion[];
    }
  ).questions;
}

/** The batches BENCH_ASSISTANT_SEALED names: kept out of a run until they are measured. */
export function sealedBatches(): Set<number> {
  return new Set(
    (process.env.BENCH_ASSISTANT_SEALED ?? '')
      .split(',')
      .filter((part) => part.trim() !== '')
      .map(Number),
  );
}

export interface BenchApp {
  fetch: Fetch;
  close(): Promise<void>;
}

/** Which database a question is asked of: the real-data fixture, or its copy with the constructed timing scenario. */
export type BenchDatabase = 'fixture' | 'timing-scenario';

export function databaseOf(question: LabelledQuestion): BenchDatabase {
  return question.scenario === 'timing' ? 'timing-scenario' : 'fixture';
}

/** The open bench databases, each with its app; `close` closes them and removes a temporary directory. */
export interface BenchApps {
  apps: ReadonlyMap<BenchDatabase, BenchApp>;
  close(): Promise<void>;
}

/**
 * The real-data fixture the API tests read (or its copy with the CONSTRUCTED timing scenario,
 * src/test-support/timing-scenario.ts, kept beside it), at its clock, with a max-plan key;
 * BENCH_ASSISTANT_DB=<file> keeps the database there and reuses it (the build takes a minute or two).
 */
export async function openBenchApps(
  databases: readonly BenchDatabase[],
  provider?: ChatProvider,
): Promise<BenchApps> {
  const kept = process.env.BENCH_ASSISTANT_DB;
  const dir = kept ? undefined : mkdtempSync(join(tmpdir(), 'dcledger-assistant-bench-'));
  const file = kept ?? join(dir ?? '.', 'bench.db');
  const apps = new Map<BenchDatabase, BenchApp>();
  const close = async () => {
    for (const app of apps.values()) await app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await buildFixture(file);
    for (const database of databases) {
      const databaseFile = database === 'fixture' ? file : await buildTimingScenario(file);
      apps.set(database, await openBenchDatabase(databaseFile, provider));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { apps, close };
}

async function buildFixture(file: string): Promise<void> {
  if (existsSync(file)) return;
  const started = Date.now();
  const store = openStore({ kind: 'sqlite', file });
  await migrateToLatest(store.db);
  await loadRealData(store.db, requireDataDir());
  await store.close();
  console.log(`[bench] assistant: fixture built in ${((Date.now() - started) / 1000).toFixed(0)}s`);
}

async function buildTimingScenario(file: string): Promise<string> {
  const scenarioFile = `${file}.timing-scenario`;
  if (existsSync(scenarioFile)) return scenarioFile;
  copyFileSync(file, scenarioFile);
  const store = openStore({ kind: 'sqlite', file: scenarioFile });
  await migrateToLatest(store.db);
  await loadTimingScenario(store.db);
  await store.close();
  return scenarioFile;
}

async function openBenchDatabase(file: string, provider: ChatProvider | undefined): Promise<BenchApp> {
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
  const app = await buildApp({
    db: store.db,
    dialect: 'sqlite',
    clock: () => new Date(now),
    ...(provider ? { assistantProvider: provider } : {}),
  });
  const fetch: Fetch = async (url) => {
    now += 1000;
    const response = await app.inject({ method: 'GET', url, headers: { 'dc-api-key': key } });
    return { status: response.statusCode, body: response.json() };
  };
  // The first semantic search indexes the database; not part of any question.
  await fetch('/v1/semantic-search?q=warm%20up');
  return {
    fetch,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

export interface QuestionResult {
  question: string;
  split: string;
  batch: number;
  shape: string;
  wrong: string[];
  /** The chat's answer as it came (for a replay to compare with the recorded run). */
  answer: ChatAnswer | undefined;
}

export interface AskOptions {
  /** Who must have planned the answers: `router`, or the configured provider's name. */
  mode: ChatAnswer['mode'];
  /** Told of each question before it is asked (the recorder labels the exchanges with it). */
  onQuestion?: (question: string) => void;
  /** Print every verdict, not only the wrong ones. */
  verbose?: boolean;
}

/** Asks each question, scores its answer against the API's expected answer; the verdicts and what was judged. */
export async function askAndScore(
  bench: BenchApps,
  questions: readonly LabelledQuestion[],
  options: AskOptions,
): Promise<{ results: QuestionResult[]; judged: Record<string, unknown>[] }> {
  const judged: Record<string, unknown>[] = [];
  const results: QuestionResult[] = [];
  for (const item of questions) {
    const app = bench.apps.get(databaseOf(item));
    if (!app) throw new Error(`no bench database open for "${item.question}"`);
    const fetch = app.fetch;
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
    options.onQuestion?.(item.question);
    const { status, body } = await fetch(`/chad/chat?q=${encodeURIComponent(item.question)}`);
    const answer = status === 200 ? (body as ChatAnswer) : undefined;
    const wrong = answer
      ? judgeAnswer(item.expect, expected, answer, options.mode)
      : [`chat answered ${status}`];
    results.push({
      question: item.question,
      split: item.split,
      batch: item.batch ?? 1,
      // The constructed scenario's questions are counted apart from the fixture's.
      shape: item.scenario ? `${item.expect.shape} (constructed)` : item.expect.shape,
      wrong,
      answer,
    });
    if (options.verbose || wrong.length > 0)
      console.log(
        `[bench] assistant: ${wrong.length === 0 ? 'right' : 'WRONG'} "${item.question}" ${wrong.join('; ')}`,
      );
  }
  return { results, judged };
}

/** The share right per shape and split, and the wrong answers, as Markdown lines. */
export function scoreTable(results: readonly QuestionResult[]): string[] {
  const shapes = [...new Set(results.map((result) => result.shape))];
  const share = (rows: readonly QuestionResult[]) => {
    const right = rows.filter((row) => row.wrong.length === 0).length;
    return rows.length === 0 ? '–' : `${(right / rows.length).toFixed(2)} (${right}/${rows.length})`;
  };
  // The test split of the newest batch, written after the router was tuned on the failures of
  // the ones before: the one column no tuning had seen when it was first measured.
  const newest = Math.max(...results.map((r) => r.batch));
  const row = (label: string, of: readonly QuestionResult[]) =>
    `| ${label} | ${share(of.filter((r) => r.split === 'dev'))} | ${share(of.filter((r) => r.split === 'test'))} | ${share(of.filter((r) => r.split === 'test' && r.batch === newest))} | ${share(of)} |`;
  const failures = results
    .filter((r) => r.wrong.length > 0)
    .map((r) => `- (${r.split}, batch ${r.batch}) "${r.question}": ${r.wrong.slice(0, 2).join('; ')}`);
  return [
    `| shape | dev | test | test, batch ${newest} | all |`,
    '|---|---|---|---|---|',
    ...shapes.map((shape) =>
      row(
        shape,
        results.filter((r) => r.shape === shape),
      ),
    ),
    row('**all**', results),
    '',
    ...(failures.length > 0 ? ['Answered wrong:', '', ...failures] : ['Every question answered right.']),
  ];
}
