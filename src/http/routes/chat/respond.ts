// What GET and POST /chad/chat share: the answer's shape, the conversation's parts and the responder
// that answers (as JSON or as Server-Sent Events). The chat's tool calls are made with the caller's
// own key through the tools' REST routes (each charged as that endpoint); the chat itself costs its
// base from the price table.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  answerChat,
  type ChatAnswer,
  type ChatMessage,
  lastQuestion,
} from '../../../services/assistant/chat.js';
import { ASSISTANT_EXTRA_TOOLS, TOOLS, toolDefinitions } from '../../../services/tools.js';
import { settleCharge } from '../../plugins/metering.js';
import type { RouteCatalog } from '../../route-catalog.js';
import { callerCredentials, injectToolTransport } from '../../tool-transport.js';
import type { App, AppDeps } from '../../types.js';

const ToolCallSummary = Type.Object({
  name: Type.String(),
  arguments: Type.Record(Type.String(), Type.Unknown()),
  status: Type.Integer({ description: 'HTTP status of the tool route' }),
  credits: Type.Integer({ description: 'Credits the call cost (0 when refused)' }),
  detail: Type.Optional(Type.String({ description: "The route's refusal" })),
});

export const ChatAnswerSchema = Type.Object(
  {
    answer: Type.String({ description: 'Every number in it is a value a tool returned' }),
    mode: Type.String({ description: 'router (no model configured), anthropic or openai' }),
    tool_calls: Type.Array(ToolCallSummary),
    citations: Type.Array(
      Type.Object({
        tool: Type.String(),
        row: Type.Record(Type.String(), Type.Unknown(), {
          description: 'The cited row as the tool returned it',
        }),
      }),
    ),
    tool_credits: Type.Integer({ description: 'Credits of the tool calls together' }),
    removed_numbers: Type.Array(Type.String(), {
      description: 'Numbers the model wrote that no tool returned (removed from the answer)',
    }),
    provider_error: Type.Optional(Type.String()),
  },
  {
    examples: [
      {
        answer:
          'Trades Nancy Pelosi (D-CA, House) disclosed last year, newest disclosure first:\n- 2024-12-20: Buy NVDA (NVIDIA Corporation), $1,000,001 - $5,000,000, disclosed 2025-01-14 [trade 1042]',
        mode: 'router',
        tool_calls: [
          {
            name: 'lookup',
            arguments: { q: 'Nancy Pelosi', types: 'politicians', limit: 5 },
            status: 200,
            credits: 15,
          },
          {
            name: 'query_trades',
            arguments: { politician_id: '17', date_from: '2025-01-01', date_to: '2025-12-31', limit: 10 },
            status: 200,
            credits: 16,
          },
        ],
        citations: [{ tool: 'query_trades', row: { id: 1042, ticker: 'NVDA' } }],
        tool_credits: 31,
        removed_numbers: [],
      },
    ],
  },
);

export const Message = Type.Object({
  role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
  content: Type.String({ minLength: 1, maxLength: 4000 }),
});

export const StreamFlag = Type.Optional(Type.Boolean({ description: 'Answer as Server-Sent Events' }));

export function wantsStream(request: FastifyRequest, flag: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/event-stream');
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const CHAT_DESCRIPTION =
  'Answers a question about the disclosures by calling the tools of /v1/tools (and /tickers/top) with your key: ' +
  'each tool call is charged as its endpoint, on top of this route’s base. The answer states no number the tools ' +
  'did not return; it lists the tool calls (name, arguments, status, credits) and the rows it cites. ' +
  'With `Accept: text/event-stream` or `stream=true` it answers as Server-Sent Events: one `tool_call` event per call, then `answer`.';

/** Answers a conversation with the tools of /v1/tools, called with the caller's key through `app`. */
export function chatResponder(app: App, deps: AppDeps, catalog: RouteCatalog) {
  const tools = () => toolDefinitions(catalog, [...TOOLS, ...ASSISTANT_EXTRA_TOOLS]);

  async function respond(
    request: FastifyRequest,
    reply: FastifyReply,
    messages: ChatMessage[],
    stream: boolean,
  ): Promise<ChatAnswer | FastifyReply> {
    lastQuestion(messages); // a bad conversation is refused (free) before any tool is called
    const options = {
      tools: tools(),
      transport: injectToolTransport(app, callerCredentials(request)),
      today: deps.clock(),
      ...(deps.assistantProvider ? { provider: deps.assistantProvider } : {}),
    };
    if (!stream) return answerChat(options, messages);

    // The chat's base is charged before the first event; the tool calls are charged as they run.
    await settleCharge(deps, request, reply, null);
    const events = new PassThrough();
    reply.header('content-type', 'text/event-stream; charset=utf-8');
    reply.header('cache-control', 'no-cache');
    void answerChat({ ...options, onToolCall: (call) => events.write(sse('tool_call', call)) }, messages)
      .then((answer) => events.end(sse('answer', answer)))
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'assistant stream failed');
        events.end(sse('error', { detail: 'the assistant failed; the tool calls made so far were charged' }));
      });
    return reply.send(events);
  }

  return respond;
}
