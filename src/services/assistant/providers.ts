// The model plans the tool calls when a provider is configured: Anthropic's Messages API or OpenAI's
// Chat Completions (any OpenAI-compatible server), through their official SDKs. Each tool the model
// asks for runs through its REST route with the caller's key; the loop ends with the model's text.
// Each SDK is loaded at the first question, not when the server starts: together they hold ~20 MB
// of a serving process that most deployments never ask them for.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { AssistantConfig, AssistantProviderName } from '../../config.js';
import type { ToolDefinition } from '../tools.js';
import type { ChatRun } from './run.js';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface ChatProvider {
  name: AssistantProviderName;
  /** Runs the conversation to a final answer, making the model's tool calls through `run`. */
  answer(run: ChatRun, messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): Promise<string>;
}

// Long answers (hundreds of trades) would crowd the model's context; it sees the first part.
const RESULT_CHARS = 24_000;

function systemPrompt(today: Date): string {
  return [
    'You answer questions about US congressional and executive-branch stock-trade disclosures.',
    `Today is ${today.toISOString().slice(0, 10)}.`,
    'Use the tools to get data: lookup turns a name into a politician_id; query_trades filters trades by disclosure date (date_from and date_to together, or days).',
    'State only numbers that appear in tool results, copied as they are; never estimate, sum or count yourself. Numbers you state that no tool returned are removed.',
    'Cite trades by their id like [trade 123]. Be brief.',
  ].join(' ');
}

function resultText(result: unknown): string {
  const text = JSON.stringify(result);
  return text.length > RESULT_CHARS ? `${text.slice(0, RESULT_CHARS)}... (truncated)` : text;
}

function argumentsOf(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

/** The value `create` makes, made once, on the first call. */
function once<T>(create: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= create();
    return made;
  };
}

export function anthropicProvider(config: AssistantConfig): ChatProvider {
  const clientOf = once(async () => {
    const { default: AnthropicClient } = await import('@anthropic-ai/sdk');
    return new AnthropicClient({
      apiKey: config.apiKey ?? '',
      baseURL: config.baseUrl ?? null,
      timeout: config.timeoutMs,
      maxRetries: 1,
    });
  });
  return {
    name: 'anthropic',
    async answer(run, messages, tools) {
      const client = await clientOf();
      const conversation: Anthropic.Messages.MessageParam[] = messages.map((message) => ({
        role: message.role,
        content: message.content,
      }));
      const toolParams: Anthropic.Messages.Tool[] = tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: { ...tool.inputSchema },
      }));
      for (let step = 0; step < config.maxSteps; step += 1) {
        const last = step === config.maxSteps - 1;
        const response = await client.messages.create({
          model: config.model,
          max_tokens: 2048,
          system: systemPrompt(run.today),
          messages: conversation,
          // The last turn must answer with what it has.
          ...(last ? {} : { tools: toolParams }),
        });
        const uses = response.content.filter(
          (block): block is Anthropic.Messages.ToolUseBlock => block.type === 'tool_use',
        );
        if (uses.length === 0 || response.stop_reason !== 'tool_use') {
          return response.content
            .flatMap((block) => (block.type === 'text' ? [block.text] : []))
            .join('\n')
            .trim();
        }
        conversation.push({ role: 'assistant', content: response.content });
        const results: Anthropic.Messages.ToolResultBlockParam[] = [];
        for (const use of uses) {
          const call = await run.call(use.name, argumentsOf(use.input));
          results.push({
            type: 'tool_result',
            tool_use_id: use.id,
            content: resultText(
              call.status >= 400 ? { status: call.status, ...argumentsOf(call.result) } : call.result,
            ),
            is_error: call.status >= 400,
          });
        }
        conversation.push({ role: 'user', content: results });
      }
      return '';
    },
  };
}

export function openaiProvider(config: AssistantConfig): ChatProvider {
  const clientOf = once(async () => {
    const { default: OpenAIClient } = await import('openai');
    return new OpenAIClient({
      apiKey: config.apiKey ?? '',
      ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
      timeout: config.timeoutMs,
      maxRetries: 1,
    });
  });
  return {
    name: 'openai',
    async answer(run, messages, tools) {
      const client = await clientOf();
      const conversation: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: systemPrompt(run.today) },
        ...messages.map((message) => ({ role: message.role, content: message.content })),
      ];
      const toolParams: OpenAI.Chat.ChatCompletionTool[] = tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: { ...tool.inputSchema } },
      }));
      for (let step = 0; step < config.maxSteps; step += 1) {
        const last = step === config.maxSteps - 1;
        const completion = await client.chat.completions.create({
          model: config.model,
          messages: conversation,
          ...(last ? {} : { tools: toolParams }),
        });
        const message = completion.choices[0]?.message;
        if (!message) return '';
        const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
        if (calls.length === 0) return (message.content ?? '').trim();
        conversation.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls });
        for (const toolCall of calls) {
          let args: Record<string, unknown> = {};
          try {
            args = argumentsOf(JSON.parse(toolCall.function.arguments || '{}'));
          } catch {
            // Arguments that are not JSON reach the route as none; its refusal goes back to the model.
          }
          const call = await run.call(toolCall.function.name, args);
          conversation.push({
            role: 'tool',
            tool_call_id: toolCall.id,
            content: resultText(
              call.status >= 400 ? { status: call.status, ...argumentsOf(call.result) } : call.result,
            ),
          });
        }
      }
      return '';
    },
  };
}

export function providerFromConfig(config: AssistantConfig): ChatProvider | undefined {
  if (config.provider === 'anthropic') return anthropicProvider(config);
  if (config.provider === 'openai') return openaiProvider(config);
  return undefined;
}
