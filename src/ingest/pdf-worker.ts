// PDF text extraction in a child process, for ingestion inside a long-running process (`serve`):
// pdf.js's legacy build replaces globals such as JSON.parse when it loads, so it must load in a
// realm of its own; and a document can make it take any amount of memory (a decompression bomb,
// a huge page), so it runs in a process of its own under a heap limit. A thread's resourceLimits
// would not do: V8 aborts the whole process, not the thread, when one large allocation crosses the
// limit. Past the limit the child dies alone; the next document starts a fresh one. One child
// serves one run's documents in turn.
import { type ChildProcess, type ForkOptions, fork } from 'node:child_process';
import { childModule } from '../threads.js';
import { PdfReadError, type PdfText } from './pdf-text.js';
import type { PdfAnswer, PdfJob } from './pdf-worker-process.js';

/**
 * Why the reader stopped: `out_of_memory` (the document needed more than the limit: reading it
 * again would end the same way), `crashed` (exited or failed otherwise), `closed` (closed by its
 * owner, a run shutting down).
 */
export type PdfWorkerFailure = 'out_of_memory' | 'crashed' | 'closed';

/** The reader itself stopped while it read a document. */
export class PdfWorkerError extends Error {
  constructor(
    message: string,
    readonly failure: PdfWorkerFailure = 'crashed',
  ) {
    super(message);
  }
}

/** Heap of the reader's JavaScript (pdf.js and the text it builds); legitimate filings use far less. */
export const DEFAULT_PDF_WORKER_MEMORY_MB = 512;

export interface PdfTextWorkerOptions {
  /** The reader process's heap limit (--max-old-space-size); default DEFAULT_PDF_WORKER_MEMORY_MB. */
  memoryMb?: number;
}

interface Pending {
  resolve: (text: PdfText) => void;
  reject: (error: Error) => void;
}

/** What V8 prints when a heap limit is reached. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i;

export class PdfTextWorker {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  readonly memoryMb: number;

  constructor(options: PdfTextWorkerOptions = {}) {
    this.memoryMb = options.memoryMb ?? DEFAULT_PDF_WORKER_MEMORY_MB;
  }

  /** Same contract as extractPdfText: PdfReadError when the bytes are not a readable PDF. */
  extract(bytes: Uint8Array): Promise<PdfText> {
    const child = this.start();
    const id = this.nextId++;
    // Referenced only while a document is in work: an idle reader must not keep a finished command alive.
    child.ref();
    child.channel?.ref();
    return new Promise<PdfText>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      child.send({ id, bytes } satisfies PdfJob);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.failAll(new PdfWorkerError('PDF worker closed', 'closed'));
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // An idle reader is unreferenced: referenced again, the process waits for its exit instead of
    // ending with this await unsettled (Node's exit code 13).
    child.ref();
    child.kill();
    await exited;
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const child = spawnReader(this.memoryMb);
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      // Only the last lines matter (the reason it died); keep a bounded tail.
      stderr = (stderr + chunk).slice(-4096);
    });
    child.on('message', (answer: PdfAnswer) => this.settle(answer));
    child.on('error', (error) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.failAll(new PdfWorkerError(`PDF worker failed: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      if (OUT_OF_MEMORY.test(stderr)) {
        this.failAll(
          new PdfWorkerError(
            `the PDF reader ran out of memory on this document (limit ${this.memoryMb} MB)`,
            'out_of_memory',
          ),
        );
        return;
      }
      this.failAll(
        new PdfWorkerError(`PDF worker exited with ${signal ? `signal ${signal}` : `code ${code}`}`),
      );
    });
    this.child = child;
    return child;
  }

  private settle(answer: PdfAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) {
      this.child?.unref();
      this.child?.channel?.unref();
    }
    if (answer.ok) waiting.resolve(answer.text);
    else waiting.reject(answer.unreadable ? new PdfReadError(answer.message) : new Error(answer.message));
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

function spawnReader(memoryMb: number): ChildProcess {
  const heap = `--max-old-space-size=${memoryMb}`;
  // Structured clone on the channel: byte arrays and the positioned text travel as they are.
  const common: ForkOptions = { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] };
  const child = childModule(import.meta.url, 'pdf-worker-process');
  return fork(child.file, [], { ...common, execArgv: [heap, ...child.execArgv] });
}
