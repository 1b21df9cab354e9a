// OCR in a worker thread: the caller's event loop only passes bytes in and results out. One
// thread reads one document at a time; a process that reads many documents at once starts
// several (OcrWorkerPool).
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { threadModule } from '../../threads.js';
import type { DocumentKind } from '../sources/document.js';
import type { ScannedPage } from './read-scan.js';
import type { ScannedRow } from './scanned-rows.js';
import type { OcrAnswer, OcrJob, OcrThreadData } from './worker-thread.js';

/** The thread failed (exited, crashed): the document is fine, the run cannot go on with it. */
export class OcrWorkerError extends Error {
  constructor(
    message: string,
    /**
     * Why: `out_of_memory` (the document took the thread past its heap limit: reading it again would
     * end the same way), `crashed` (exited or failed otherwise), `closed` (closed by its owner).
     */
    readonly failure: 'out_of_memory' | 'crashed' | 'closed' = 'crashed',
  ) {
    super(message);
  }
}

/** The bytes are no PDF the rasterizer can open. */
export class OcrUnreadableError extends Error {}

/** The reader threw on this document (the thread lives on and reads the next one). */
export class OcrReadError extends Error {}

export interface ScanReading {
  pages: ScannedPage[];
  rows: ScannedRow[];
}

export interface ReadOptions {
  /** Pages already read (stored by an interrupted run). */
  done?: ScannedPage[];
  filedDate: string | null;
  /** Which form the pages are read as (a House paper PTR when absent). */
  kind?: DocumentKind;
  /** Called in the caller's thread after each page the thread reads. */
  onPage?: (page: ScannedPage, total: number) => void | Promise<void>;
}

interface Pending {
  resolve: (reading: ScanReading) => void;
  reject: (error: Error) => void;
  onPage: ReadOptions['onPage'];
  /** Page callbacks in order: each waits for the one before (they may write to a database). */
  pages: Promise<void>;
}

export class OcrWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly data: OcrThreadData = {},
    /** The thread's heap limit in MB (DEFAULT_HEAP_MB). */
    private readonly heapMb: number = DEFAULT_HEAP_MB,
  ) {}

  read(bytes: Uint8Array, options: ReadOptions): Promise<ScanReading> {
    const worker = this.start();
    const id = this.nextId++;
    worker.ref();
    return new Promise<ScanReading>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onPage: options.onPage, pages: Promise.resolve() });
      worker.postMessage({
        id,
        bytes: bytes.slice(),
        done: options.done ?? [],
        filedDate: options.filedDate,
        kind: options.kind ?? 'house_ptr_pdf',
      } satisfies OcrJob);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.failAll(new OcrWorkerError('OCR worker closed', 'closed'));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnWorker(this.data, { maxOldGenerationSizeMb: this.heapMb });
    worker.on('message', (answer: OcrAnswer) => this.settle(answer));
    worker.on('error', (error) => {
      this.worker = undefined;
      const failure =
        (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out_of_memory' : 'crashed';
      this.failAll(new OcrWorkerError(`OCR worker failed: ${error.message}`, failure));
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new OcrWorkerError(`OCR worker exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private settle(answer: OcrAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    if (answer.kind === 'page') {
      const { onPage } = waiting;
      if (onPage) waiting.pages = waiting.pages.then(() => onPage(answer.page, answer.total));
      return;
    }
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (answer.kind === 'error') {
      waiting.reject(
        answer.unreadable ? new OcrUnreadableError(answer.message) : new OcrReadError(answer.message),
      );
      return;
    }
    waiting.pages.then(
      () => waiting.resolve({ pages: answer.pages, rows: answer.rows }),
      (error: unknown) => waiting.reject(error instanceof Error ? error : new Error(String(error))),
    );
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

/**
 * The thread's JavaScript heap: a document that makes it grow past this ends the thread (the
 * document fails with the reason, the next one starts a fresh thread), not the process. Page images
 * and the engine's memory live outside this heap; MAX_PAGE_PIXELS bounds the former.
 */
export const DEFAULT_HEAP_MB = 1024;

function spawnWorker(data: OcrThreadData, resourceLimits: ResourceLimits): Worker {
  return new Worker(new URL(threadModule(import.meta.url, 'worker-thread')), {
    workerData: data,
    resourceLimits,
  });
}
