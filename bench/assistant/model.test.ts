// The assistant-model bench's round trip on the real-data fixture, for both providers' shapes: a
// CONSTRUCTED provider (responses in the documented Anthropic Messages and OpenAI Chat Completions
// shapes, src/test-support/llm-recordings/bench-*.constructed.json, served on 127.0.0.1) answers
// three labelled questions through /chad/chat while the recording proxy records every exchange;
// the scorer scores them; then the replay server answers the same questions from the recording
// alone, with the same answers and verdicts, and a question the recording does not hold fails.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../src/accounts/rate-limit.js';
import { buildApp } from '../../src/app.js';
import type { AssistantConfig, AssistantProviderName } from '../../src/config.js';
import type { ChatProvider } from '../../src/services/assistant/providers.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../src/test-support/app.js';
import { loadRecording, startReplayProvider } from '../../src/test-support/llm-replay.js';
import { readQuestions } from '../assistant.js';
import { readRecording, recordedQuestions, recordingSession, replaySession } from '../assistant-model.js';
import { askAndScore, type QuestionResult } from './ask.js';
import type { Fetch, LabelledQuestion } from './score.js';

const PROVIDER_KEY = 'sk-constructed-provider-key-0123456789';

const ASKED = [
  'what was Sen. Inhofe selling in Q1 2020?',
  'should I buy Tesla now?',
  'what did Nancy Pelosi trade in 2021?',
];
const NOT_RECORDED = 'Nancy Pelosi trades 2021';

function labelled(texts: readonly string[]): LabelledQuestion[] {
  const all = readQuestions();
  return texts.map((text) => {
    const item = all.find((entry) => entry.question === text);
    if (!item) throw new Error(`"${text}" is not in questions.json`);
    return item;
  });
}

/** What a replay must reproduce of each verdict: the answer, its calls and citations, why it is wrong. */
function outcome(results: readonly QuestionResult[]) {
  return results.map((result) => ({
    question: result.question,
    wrong: result.wrong,
    answer: result.answer?.answer,
    mode: result.answer?.mode,
    tool_calls: result.answer?.tool_calls,
    cited: result.answer?.citations.map((citation) => citation.row.id),
  }));
}

describe.skipIf(!realDataAvailable())(
  'assistant-model bench: record a provider, replay the recording',
  () => {
    let ctx: FixtureApp;
    let dir: string;
    beforeAll(async () => {
      ctx = await openFixtureApp();
      dir = mkdtempSync(join(tmpdir(), 'dcledger-assistant-model-'));
    });
    afterAll(async () => {
      await ctx?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function askWith(
      provider: ChatProvider,
      questions: readonly LabelledQuestion[],
      mode: AssistantProviderName,
      onQuestion?: (q: string) => void,
    ) {
      const app = await buildApp({
        db: ctx.store.db,
        dialect: ctx.store.dialect,
        clock: () => ctx.clock.now,
        rateLimits: new MemoryRateLimitStore(),
        webhooks: ctx.webhooks,
        assistantProvider: provider,
      });
      const fetch: Fetch = async (url) => {
        const { status, body } = await getJson({ app, key: ctx.key }, url);
        return { status, body };
      };
      try {
        const bench = {
          apps: new Map([['fixture' as const, { fetch, close: async () => {} }]]),
          close: async () => {},
        };
        return (await askAndScore(bench, questions, { mode, ...(onQuestion ? { onQuestion } : {}) })).results;
      } finally {
        await app.close();
      }
    }

    it.each(['anthropic', 'openai'] as const)(
      '%s: the replayed run scores as the recorded one; an unrecorded question fails',
      async (name) => {
        // The constructed provider stands where the real one would be.
        const upstream = await startReplayProvider(loadRecording(`bench-${name}.constructed.json`));
        const config: AssistantConfig = {
          provider: name,
          apiKey: PROVIDER_KEY,
          model: name === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1-mini',
          baseUrl: name === 'anthropic' ? upstream.baseUrl : `${upstream.baseUrl}/v1`,
          maxSteps: 6,
          timeoutMs: 10_000,
        };
        const recording = await recordingSession(config);
        let recorded: QuestionResult[];
        try {
          recorded = await askWith(recording.provider, labelled(ASKED), name, (question) => {
            recording.recorder.question = question;
          });
        } finally {
          await recording.proxy.close();
          await upstream.close();
        }
        // Every constructed response was asked for, through the proxy, with the provider's key.
        expect(upstream.remaining()).toBe(0);
        const sent = upstream.requests[0] as { headers: Record<string, string> };
        expect(`${sent.headers.authorization ?? ''} ${sent.headers['x-api-key'] ?? ''}`).toContain(
          PROVIDER_KEY,
        );

        // The scorer scores the model's answers: the ten expected sales and the "I can answer" reply are
        // right; the answer with three trades of ten and a number no tool returned is wrong.
        expect(recorded.map((result) => result.answer?.mode)).toEqual([name, name, name]);
        expect(recorded[0]?.wrong).toEqual([]);
        expect(recorded[0]?.answer?.citations).toHaveLength(10);
        expect(recorded[1]?.wrong).toEqual([]);
        expect(recorded[2]?.wrong).toEqual(['unsupported numbers 987654321', 'cited 3, expected 10']);

        const file = join(dir, `recording-${name}.json`);
        writeFileSync(
          file,
          JSON.stringify(recording.recorder.file(ASKED, new Date('2026-06-01T12:00:00Z')), null, 1),
        );
        const text = readFileSync(file, 'utf8');
        // No key, no header in the file; each question's exchanges, the second continuing the first.
        expect(text).not.toContain(PROVIDER_KEY);
        expect(text.toLowerCase()).not.toMatch(/authorization|x-api-key/);
        const saved = readRecording(file);
        expect(saved.exchanges.map((exchange) => exchange.question)).toEqual([
          ASKED[0],
          ASKED[0],
          ASKED[1],
          ASKED[2],
          ASKED[2],
        ]);
        expect(saved.exchanges.map((exchange) => exchange.continues)).toEqual([
          undefined,
          0,
          undefined,
          undefined,
          3,
        ]);
        expect(Object.keys(saved.tools)).toHaveLength(1);

        // The replay: the recording alone answers, pointed to by DCLEDGER_ASSISTANT_BASE_URL.
        const replay = await replaySession(saved);
        try {
          expect(replay.config.baseUrl).toBe(replay.server.baseUrl);
          const replayed = await askWith(replay.provider, recordedQuestions(saved, readQuestions()), name);
          expect(outcome(replayed)).toEqual(outcome(recorded));
          expect(replay.server.misses).toEqual([]);
          expect(replay.server.unused()).toBe(0);

          // A question the recording does not hold: no made-up answer, the router's answer, scored wrong.
          const [unrecorded] = await askWith(replay.provider, labelled([NOT_RECORDED]), name);
          expect(unrecorded?.answer?.mode).toBe('router');
          expect(unrecorded?.answer?.provider_error).toMatch(/not in the recording/);
          expect(unrecorded?.wrong[0]).toMatch(/^mode router \(.*not in the recording/);
          expect(replay.server.misses).toEqual([
            `question "${NOT_RECORDED}" (${saved.exchanges[0]?.path}) is not in the recording`,
          ]);
        } finally {
          await replay.server.close();
        }
      },
    );
  },
);
