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
// The same questions with a model planning the calls: `assistant-model` (bench/assistant-model.ts).
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  ASSISTANT_DIR,
  askAndScore,
  databaseOf,
  openBenchApps,
  readQuestions,
  scoreTable,
  sealedBatches,
} from './assistant/ask.js';
import { machine } from './report.js';

export { readQuestions } from './assistant/ask.js';

export async function runAssistantBench(): Promise<string> {
  const sealed = sealedBatches();
  const questions = readQuestions().filter((item) => !sealed.has(item.batch ?? 1));
  // No provider: the router answers, whatever the environment configures.
  const bench = await openBenchApps([...new Set(questions.map(databaseOf))]);
  try {
    const { results, judged } = await askAndScore(bench, questions, {
      mode: 'router',
      verbose: Boolean(process.env.BENCH_VERBOSE),
    });
    writeFileSync(join(ASSISTANT_DIR, 'judged.json'), `${JSON.stringify(judged, null, 1)}\n`);
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
      ...scoreTable(results),
    ].join('\n');
  } finally {
    await bench.close();
  }
}
