// The replay server and the recording proxy of the assistant-model bench, driven by the providers'
// official SDKs on 127.0.0.1, over two CONSTRUCTED recordings in the documented Anthropic Messages
// and OpenAI Chat Completions shapes (src/test-support/llm-recordings/recording-*.constructed.json):
// the replay answers each recorded request with its recorded response, refuses any other request
// with why, and recording the replay gives the same exchanges back, with no key in the file.
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startRecordingProxy, startReplayServer } from './provider-servers.js';
import {
  canonical,
  type Exchange,
  expandRecording,
  publicAddress,
  Recorder,
  type RecordingFile,
  requestKey,
  scrub,
} from './recording.js';

const SECRET = 'sk-constructed-secret-key-0123456789';

function constructed(provider: 'anthropic' | 'openai'): RecordingFile {
  const url = new URL(
    `../../src/test-support/llm-recordings/recording-${provider}.constructed.json`,
    import.meta.url,
  );
  return JSON.parse(readFileSync(url, 'utf8')) as RecordingFile;
}

type Send = (body: Record<string, unknown>) => Promise<unknown>;

/** Sends a request body through the provider's SDK to `baseUrl`, as the assistant does. */
function sdk(provider: 'anthropic' | 'openai', baseUrl: string, apiKey: string): Send {
  if (provider === 'anthropic') {
    const client = new Anthropic({ apiKey, baseURL: baseUrl, maxRetries: 1, timeout: 10_000 });
    return (body) =>
      client.messages.create(body as unknown as Anthropic.Messages.MessageCreateParamsNonStreaming);
  }
  const client = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 1, timeout: 10_000 });
  return (body) =>
    client.chat.completions.create(body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
}

/** The requests a run made (a request the SDK retried once), with the response it ended with. */
function asked(exchanges: readonly Exchange[]): Exchange[] {
  return exchanges.filter((exchange) => exchange.status === 200);
}

/** An exchange as a replay must reproduce it: the whole request, the status and the response. */
function wire(exchange: Exchange) {
  return canonical({
    question: exchange.question,
    path: exchange.path,
    body: exchange.body,
    status: exchange.status,
    response: exchange.response,
  });
}

describe.each(['anthropic', 'openai'] as const)('%s recordings (constructed)', (provider) => {
  const recording = constructed(provider);
  const exchanges = expandRecording(recording);

  it('the replay server answers each recorded request with its recorded response, through the SDK', async () => {
    const replay = await startReplayServer(recording);
    try {
      const send = sdk(provider, replay.baseUrl, 'replay');
      for (const exchange of asked(exchanges))
        expect(await send(exchange.body)).toMatchObject(exchange.response as object);
      expect(replay.misses).toEqual([]);
      expect(replay.unused()).toBe(0);
    } finally {
      await replay.close();
    }
  });

  it('a request the recording does not hold is refused with why, never answered', async () => {
    const replay = await startReplayServer(recording);
    try {
      const send = sdk(provider, replay.baseUrl, 'replay');
      const [first, second] = asked(exchanges);
      if (!first || !second) throw new Error('the recording has two requests of one question');
      // The tool result the model got is not the recorded one (another database): refused.
      const messages = second.body.messages as Record<string, unknown>[];
      const changed = JSON.parse(JSON.stringify(second.body).replace('9100002', '9100003')) as Record<
        string,
        unknown
      >;
      await expect(send(changed)).rejects.toMatchObject({ status: 404 });
      // A question never asked: refused too.
      const unasked = JSON.parse(
        JSON.stringify(first.body).replace('what did Nancy Pelosi trade in 2021?', 'who bought NVDA?'),
      ) as Record<string, unknown>;
      await expect(send(unasked)).rejects.toThrow(/not in the recording/);
      // A recorded request asked twice: its one response was served already.
      expect(await send(first.body)).toMatchObject(first.response as object);
      await expect(send(first.body)).rejects.toThrow(/asked more times than it was/);
      expect(replay.misses).toEqual([
        `question "what did Nancy Pelosi trade in 2021?": no recorded request has these messages; the closest differs from message ${messages.length - 1} on (a changed tool result, system prompt, model or database)`,
        `question "who bought NVDA?" (${first.path}) is not in the recording`,
        'question "what did Nancy Pelosi trade in 2021?": this request was recorded, but asked more times than it was',
      ]);
    } finally {
      await replay.close();
    }
  });

  it('recording through the proxy gives the exchanges back, the retried one included, with no key', async () => {
    const upstream = await startReplayServer(recording);
    const recorder = new Recorder({
      provider,
      model: recording.model,
      maxSteps: recording.max_steps,
      upstream: upstream.baseUrl,
      secrets: [SECRET],
    });
    const proxy = await startRecordingProxy(upstream.baseUrl, recorder);
    try {
      const send = sdk(provider, proxy.baseUrl, SECRET);
      for (const exchange of asked(exchanges)) {
        recorder.question = exchange.question;
        expect(await send(exchange.body)).toMatchObject(exchange.response as object);
      }
      const file = recorder.file(recording.questions, new Date(recording.recorded_at));
      expect(expandRecording(file).map(wire)).toEqual(exchanges.map(wire));
      // The second request of a conversation keeps only what it adds; the tools are kept once.
      expect(file.exchanges.map((exchange) => exchange.continues)).toEqual(
        recording.exchanges.map((exchange) => exchange.continues),
      );
      expect(Object.keys(file.tools)).toHaveLength(1);
      const text = JSON.stringify(file);
      expect(text).not.toContain(SECRET);
      expect(text.toLowerCase()).not.toMatch(/authorization|x-api-key|bearer/);
      expect(upstream.misses).toEqual([]);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('what a recording keeps and matches on', () => {
  it("a refused call's request id does not stop a match; a changed row does", () => {
    const body = (result: string) => ({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'tool', tool_call_id: 'call_1', content: result },
      ],
    });
    const refused = (id: string) =>
      JSON.stringify({ status: 402, detail: 'not enough credits', request_id: id, code: 'payment_required' });
    expect(requestKey('/chat/completions', body(refused('6f1c-a')))).toBe(
      requestKey('/chat/completions', body(refused('90b2-b'))),
    );
    expect(requestKey('/chat/completions', body('[{"id":1}]'))).not.toBe(
      requestKey('/chat/completions', body('[{"id":2}]')),
    );
    // The order an object's keys were written in does not matter.
    expect(requestKey('/v1/messages', { messages: [{ role: 'user', content: 'q' }], model: 'm' })).toBe(
      requestKey('/v1/messages', { model: 'm', messages: [{ content: 'q', role: 'user' }] }),
    );
  });

  it('a key written into a question is struck from the file, plain or JSON-escaped', () => {
    const recorder = new Recorder({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      maxSteps: 6,
      upstream: 'https://proxy.example.org/v1?token=abc',
      secrets: ['sk-"quoted"-key'],
    });
    recorder.question = 'is sk-"quoted"-key my key?';
    recorder.add({
      path: '/chat/completions',
      body: { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'is sk-"quoted"-key my key?' }] },
      status: 200,
      response: { choices: [] },
    });
    const text = JSON.stringify(recorder.file(['is sk-"quoted"-key my key?'], new Date()));
    expect(text).not.toContain('quoted');
    expect(text).toContain('is [redacted] my key?');
    expect(text).not.toContain('token=abc');
    expect(scrub('a secret and a secret', ['secret'])).toBe('a [redacted] and a [redacted]');
    expect(publicAddress('https://user:pw@proxy.example.org/v1/?token=abc')).toBe(
      'https://proxy.example.org/v1',
    );
  });
});
