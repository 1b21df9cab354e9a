// One assistant answer in the making: the tool calls it made (each through its REST route with the
// caller's key), the rows it cites and the lines it writes.
import { quoted } from '../../errors.js';
import { callTool, type ToolCall, type ToolDefinition, type ToolTransport } from '../tools.js';
import { Evidence } from './grounding.js';

/** A tool call as the answer reports it. */
export interface ToolCallSummary {
  name: string;
  arguments: Record<string, unknown>;
  status: number;
  credits: number;
  /** The route's refusal, when it refused. */
  detail?: string;
}

export interface Citation {
  tool: string;
  row: Record<string, unknown>;
}

export interface ChatRunOptions {
  tools: readonly ToolDefinition[];
  transport: ToolTransport;
  today: Date;
  /** Told of each tool call as it completes (the SSE stream). */
  onToolCall?: (call: ToolCallSummary) => void;
}

export class ChatRun {
  readonly today: Date;
  readonly calls: ToolCall[] = [];
  readonly citations: Citation[] = [];
  readonly evidence = new Evidence();
  private readonly lines: string[] = [];
  private readonly byName: Map<string, ToolDefinition>;

  constructor(private readonly options: ChatRunOptions) {
    this.today = options.today;
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolCall> {
    const tool = this.byName.get(name);
    const call: ToolCall = tool
      ? await callTool(tool, args, this.options.transport)
      : {
          name,
          arguments: args,
          status: 400,
          credits: 0,
          result: { detail: `unknown tool ${quoted(name)}` },
        };
    this.calls.push(call);
    this.evidence.add(call.result);
    this.evidence.add(call.status);
    this.options.onToolCall?.(summarize(call));
    return call;
  }

  cite(tool: string, row: object): void {
    this.citations.push({ tool, row: { ...row } });
  }

  write(line: string): void {
    this.lines.push(line);
  }

  /** Explains a refused call with the route's own detail (402, 403, 422, ...). */
  refused(call: ToolCall): void {
    this.write(`The ${call.name} call was refused (HTTP ${call.status}): ${detailOf(call.result)}`);
  }

  text(): string {
    return this.lines.join('\n');
  }

  toolCredits(): number {
    return this.calls.reduce((sum, call) => sum + call.credits, 0);
  }
}

export function detailOf(result: unknown): string {
  if (typeof result === 'object' && result !== null && 'detail' in result) {
    const detail = (result as { detail: unknown }).detail;
    if (typeof detail === 'string') return detail;
  }
  return 'no detail';
}

export function summarize(call: ToolCall): ToolCallSummary {
  return {
    name: call.name,
    arguments: call.arguments,
    status: call.status,
    credits: call.credits,
    ...(call.status >= 400 ? { detail: detailOf(call.result) } : {}),
  };
}
