// The assistant behind /chad/chat: with a configured model provider the model plans the tool calls,
// without one the intent router answers. Either way the answer states no number the tools did not
// return, and it reports every tool call (name, arguments, status, credits) and the rows it cites.
import { ApiError } from '../../errors.js';
import type { ToolCall } from '../tools.js';
import { redactUnsupported } from './grounding.js';
import type { ChatMessage, ChatProvider } from './providers.js';
import { answerWithRouter } from './router.js';
import { ChatRun, type ChatRunOptions, type Citation, summarize, type ToolCallSummary } from './run.js';

export type { ChatMessage } from './providers.js';

export interface ChatAnswer {
  answer: string;
  /** Who planned the calls: the intent router or the configured provider. */
  mode: 'router' | 'anthropic' | 'openai';
  tool_calls: ToolCallSummary[];
  citations: Citation[];
  /** Credits the tool calls cost together (the chat's own base charge is in X-Credits-Charged). */
  tool_credits: number;
  /** Numbers the model wrote that no tool returned, removed from the answer. */
  removed_numbers: string[];
  /** Why the provider could not answer, when the router answered instead. */
  provider_error?: string;
}

const MAX_CITATIONS = 20;

export function lastQuestion(messages: readonly ChatMessage[]): string {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user' || last.content.trim() === '') {
    throw new ApiError('unprocessable', 'messages: the last message must be a non-empty user message', {
      field: 'messages',
    });
  }
  return last.content.trim();
}

/**
 * The rows of a tool result: an array's objects, and the arrays of objects an answer holds, however
 * deep (a dossier keeps members' latest trades inside its trade totals).
 */
function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result))
    return result.filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null);
  if (typeof result !== 'object' || result === null) return [];
  return Object.values(result).flatMap((value) => rowsOf(value));
}

/**
 * The rows of the tool results a model's answer names. A row with an id (a trade, a filing) is named
 * by its id: a ticker the answer mentions names every trade of that ticker, most of which the answer
 * is not about. A row without one (a ranking's entry, a holding) is named by its ticker.
 */
export function mentionedRows(calls: readonly ToolCall[], answer: string): Citation[] {
  const citations: Citation[] = [];
  for (const call of calls) {
    if (call.status >= 400) continue;
    for (const row of rowsOf(call.result)) {
      const id = typeof row.id === 'number' ? String(row.id) : undefined;
      const ticker = typeof row.ticker === 'string' && row.ticker !== 'N/A' ? row.ticker : undefined;
      const named =
        id !== undefined
          ? new RegExp(`\\b${id}\\b`).test(answer)
          : ticker !== undefined && new RegExp(`\\b${ticker.replace('.', '\\.')}\\b`).test(answer);
      if (named) citations.push({ tool: call.name, row });
      if (citations.length >= MAX_CITATIONS) return citations;
    }
  }
  return citations;
}

function finish(run: ChatRun, mode: ChatAnswer['mode'], answer: string, citations: Citation[]): ChatAnswer {
  const grounded = redactUnsupported(answer, run.evidence);
  return {
    answer: grounded.text,
    mode,
    tool_calls: run.calls.map(summarize),
    citations,
    tool_credits: run.toolCredits(),
    removed_numbers: grounded.removed,
  };
}

export async function answerChat(
  options: ChatRunOptions & { provider?: ChatProvider },
  messages: readonly ChatMessage[],
): Promise<ChatAnswer> {
  const question = lastQuestion(messages);
  const run = new ChatRun(options);
  if (options.provider) {
    try {
      const text = await options.provider.answer(run, messages, options.tools);
      if (text !== '') return finish(run, options.provider.name, text, mentionedRows(run.calls, text));
    } catch (error) {
      const fallback = new ChatRun(options);
      await answerWithRouter(fallback, question);
      return {
        ...finish(fallback, 'router', fallback.text(), fallback.citations),
        // Calls the model made before failing were made (and charged): they are reported too.
        tool_calls: [...run.calls, ...fallback.calls].map(summarize),
        tool_credits: run.toolCredits() + fallback.toolCredits(),
        provider_error: error instanceof Error ? error.message.slice(0, 300) : 'provider failed',
      };
    }
  }
  await answerWithRouter(run, question);
  return finish(run, 'router', run.text(), run.citations);
}
