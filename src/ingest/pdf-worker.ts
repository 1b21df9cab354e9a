// PDF text extraction in a worker thread, for ingestion inside a long-running process (`serve`):
// pdf.js's legacy build replaces globals such as JSON.parse when it loads, so it must load in a
// realm of its own. One worker serves one run's documents in turn.
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PdfReadError, type PdfText } from './pdf-text.js';
import type { PdfAnswer, PdfJob } from './pdf-worker-thread.js';

/** The worker itself failed (exited, crashed): the document is fine, the run cannot go on. */
export class PdfWorkerError extends Error {}

interface Pending {
  resolve: (text: PdfText) => void;
  reject: (error: Error) => void;
}

export class PdfTextWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** Same contract as extractPdfText: PdfReadError when the bytes are not a readable PDF. */
  extract(bytes: Uint8Array): Promise<PdfText> {
    const worker = this.start();
    const id = this.nextId++;
    // Referenced only while a document is in work: an idle worker must not keep a finished command alive.
    worker.ref();
    return new Promise<PdfText>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A copy, so the caller keeps its bytes (posting transfers nothing, but stay explicit).
      worker.postMessage({ id, bytes: bytes.slice() } satisfies PdfJob);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.failAll(new PdfWorkerError('PDF worker closed'));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnWorker();
    worker.on('message', (answer: PdfAnswer) => this.settle(answer));
    worker.on('error', (error) => {
      this.worker = undefined;
      this.failAll(new PdfWorkerError(`PDF worker failed: ${error.message}`));
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new PdfWorkerError(`PDF worker exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private settle(answer: PdfAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (answer.ok) waiting.resolve(answer.text);
    else waiting.reject(answer.unreadable ? new PdfReadError(answer.message) : new Error(answer.message));
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

function spawnWorker(): Worker {
  if (extname(fileURLToPath(import.meta.url)) !== '.ts') {
    return new Worker(new URL('./pdf-worker-thread.js', import.meta.url));
  }
  // Run from the TypeScript sources (tests, tsx): load the worker through tsx, which a worker
  // thread does not inherit from its parent on Node 20.
  const tsxApi = pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href;
  const entry = new URL('./pdf-worker-thread.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true });
}
