// `npm run bench -- assistant-model`: the labelled questions of `assistant` (same questions, same
// fixture, same scorer), answered with a model planning the tool calls through /chad/chat.
// - With a provider configured as the service reads it (DCLEDGER_ASSISTANT_PROVIDER, ANTHROPIC_API_KEY
//   or OPENAI_API_KEY, DCLEDGER_ASSISTANT_MODEL, DCLEDGER_ASSISTANT_BASE_URL, ..._MAX_STEPS), the SDK's
//   requests go through a recording proxy on 127.0.0.1 to the provider, and every exchange is
//   written to bench/assistant/recordings-<provider>-<model>.json.
// - With BENCH_ASSISTANT_REPLAY=<recording>, a replay server on 127.0.0.1 answers them from that file
//   (DCLEDGER_ASSISTANT_BASE_URL points to it): the recorded run's score without the provider. A
//   request the recording does not hold fails the run.
// BENCH_ASSISTANT_DB and BENCH_ASSISTANT_SEALED work as in `assistant`.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { type AssistantConfig, readAssistant } from '../src/config.js';
import { type ChatProvider, providerFromConfig } from '../src/services/assistant/providers.js';
import { repoRoot } from '../src/test-support/data-dir.js';
import {
  ASSISTANT_DIR,
  askAndScore,
  databaseOf,
  openBenchApps,
  readQuestions,
  scoreTable,
  sealedBatches,
} from './assistant/ask.js';
import {
  type LocalServer,
  type ReplayServer,
  startRecordingProxy,
  startReplayServer,
} from './assistant/provider-servers.js';
import { PROVIDER_BASE_URLS, Recorder, type RecordingFile, recordingName } from './assistant/recording.js';
import type { LabelledQuestion } from './assistant/score.js';
import { machine } from './report.js';

const KEY_VARIABLES = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' } as const;

export interface RecordingSession {
  provider: ChatProvider;
  recorder: Recorder;
  proxy: LocalServer;
}

/** The configured provider, its requests passed through a recording proxy to the provider's address. */
export async function recordingSession(config: AssistantConfig): Promise<RecordingSession> {
  if (!config.provider) throw new Error('no model provider configured');
  const upstream = config.baseUrl ?? PROVIDER_BASE_URLS[config.provider];
  const recorder = new Recorder({
    provider: config.provider,
    model: config.model,
    maxSteps: config.maxSteps,
    upstream,
    secrets: config.apiKey ? [config.apiKey] : [],
  });
  const proxy = await startRecordingProxy(upstream, recorder);
  const provider = providerFromConfig({ ...config, baseUrl: proxy.baseUrl });
  if (!provider) throw new Error(`no provider for ${config.provider}`);
  return { provider, recorder, proxy };
}

export interface ReplaySession {
  provider: ChatProvider;
  config: AssistantConfig;
  server: ReplayServer;
}

/** The recording's provider and model, read as the service reads them, pointed at a replay server of it. */
export async function replaySession(recording: RecordingFile): Promise<ReplaySession> {
  const server = await startReplayServer(recording);
  const config = readAssistant({
    DCLEDGER_ASSISTANT_PROVIDER: recording.provider,
    // The SDK needs a key to send; the replay server reads none.
    [KEY_VARIABLES[recording.provider]]: 'replay',
    DCLEDGER_ASSISTANT_MODEL: recording.model,
    DCLEDGER_ASSISTANT_BASE_URL: server.baseUrl,
    DCLEDGER_ASSISTANT_MAX_STEPS: String(recording.max_steps),
  });
  const provider = providerFromConfig(config);
  if (!provider) throw new Error(`no provider for ${recording.provider}`);
  return { provider, config, server };
}

export function readRecording(file: string): RecordingFile {
  return JSON.parse(readFileSync(file, 'utf8')) as RecordingFile;
}

/** The recording's questions, in its order, from the question file (their expected answers are there). */
export function recordedQuestions(
  recording: RecordingFile,
  all: readonly LabelledQuestion[],
): LabelledQuestion[] {
  const byText = new Map(all.map((item) => [item.question, item]));
  return recording.questions.map((question) => {
    const item = byText.get(question);
    if (!item)
      throw new Error(
        `the recording asks "${question}", which bench/assistant/questions.json no longer holds`,
      );
    return item;
  });
}

export async function runAssistantModelBench(): Promise<string> {
  const replayFile = process.env.BENCH_ASSISTANT_REPLAY;
  const recording = replayFile ? readRecording(replayFile) : undefined;
  const config = recording ? undefined : readAssistant(process.env);
  if (!recording && !config?.provider)
    throw new Error(
      'assistant-model needs a model provider (DCLEDGER_ASSISTANT_PROVIDER with ANTHROPIC_API_KEY or OPENAI_API_KEY, ' +
        'see docs/assistant.md) or BENCH_ASSISTANT_REPLAY=<a recording in bench/assistant/>',
    );
  const sealed = sealedBatches();
  const questions = recording
    ? recordedQuestions(recording, readQuestions())
    : readQuestions().filter((item) => !sealed.has(item.batch ?? 1));
  const recordingRun = config ? await recordingSession(config) : undefined;
  const replayRun = recording ? await replaySession(recording) : undefined;
  const session = recordingRun ?? replayRun;
  const settings = replayRun?.config ?? config;
  if (!session || !settings?.provider) throw new Error('no provider session');
  const bench = await openBenchApps([...new Set(questions.map(databaseOf))], session.provider);
  try {
    const { results } = await askAndScore(bench, questions, {
      mode: settings.provider,
      verbose: Boolean(process.env.BENCH_VERBOSE),
      onQuestion: (question) => {
        if (recordingRun) recordingRun.recorder.question = question;
      },
    });
    const misses = replayRun?.server.misses ?? [];
    if (misses.length > 0)
      throw new Error(
        `${misses.length} requests of the replay are not in ${replayFile}: it is a recording of another question ` +
          `set, database, model or prompt. First: ${misses.slice(0, 3).join(' | ')}`,
      );
    const file = join(ASSISTANT_DIR, recordingName(settings.provider, settings.model));
    if (recordingRun) {
      const recorded = recordingRun.recorder.file(
        questions.map((item) => item.question),
        new Date(),
      );
      writeFileSync(file, `${JSON.stringify(recorded, null, 1)}\n`);
      console.log(`[bench] assistant-model: ${recorded.exchanges.length} exchanges recorded to ${file}`);
    }
    const source = relative(repoRoot, replayFile ?? file);
    const command = recordingRun
      ? `DCLEDGER_ASSISTANT_PROVIDER=${settings.provider} ${KEY_VARIABLES[settings.provider]}=… DCLEDGER_ASSISTANT_MODEL=${settings.model} npm run bench -- assistant-model`
      : `BENCH_ASSISTANT_REPLAY=${source} npm run bench -- assistant-model`;
    return [
      `## Assistant with a model (${settings.provider}, ${settings.model}): labelled questions`,
      '',
      `\`${command}\` (${machine()}, load ${loadavg()[0]?.toFixed(1)}). ` +
        `${recordingRun ? 'Recorded' : `Replayed from the recording of ${recording?.recorded_at.slice(0, 10)}`}: ` +
        `${questions.length} questions of bench/assistant/questions.json asked through /chad/chat with the model planning ` +
        `the tool calls (at most ${settings.maxSteps} steps), on the fixture and with the scorer of the section above; ` +
        `every provider exchange is in ${source} (replay: \`BENCH_ASSISTANT_REPLAY=${source} npm run bench -- assistant-model\`). ` +
        'An answer the router gave because the provider failed counts as wrong.',
      '',
      ...scoreTable(results),
    ].join('\n');
  } finally {
    await bench.close();
    await recordingRun?.proxy.close();
    await replayRun?.server.close();
  }
}
