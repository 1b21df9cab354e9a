// Worker thread body of OcrWorker: rasterizing, turning pages upright, finding the grid and the
// engine's reading all happen here, never on the thread that answers API requests. The engine
// and the lexicon are started once per thread and kept for the next document.
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { DocumentKind } from '../sources/document.js';
import { type OcrEngine, TesseractEngine } from './engine.js';
import { formReader } from './forms.js';
import { assetLexicon, type Lexicon } from './lexicon.js';
import { judgedFiler } from './oge-filer.js';
import { readScan, type ScannedPage } from './read-scan.js';
import type { ScannedRow } from './scanned-rows.js';

export interface OcrThreadData {
  /**
   * The database's companies, each as its listed symbol and name: the lexicon knows the names'
   * words, and a ticker in brackets after its issuer's name.
   */
  issuers?: ReadonlyArray<readonly [string, string]>;
  /** Asset descriptions of stored trades, whose longer words the lexicon also knows. */
  descriptions?: readonly string[];
}

export interface OcrJob {
  id: number;
  bytes: Uint8Array;
  /** Pages read before (an interrupted run): not read again. */
  done: ScannedPage[];
  filedDate: string | null;
  /** Which form the pages are read as. */
  kind: DocumentKind;
}

export type OcrAnswer =
  | { id: number; kind: 'page'; page: ScannedPage; total: number }
  | { id: number; kind: 'done'; pages: ScannedPage[]; rows: ScannedRow[] }
  | { id: number; kind: 'error'; message: string; unreadable: boolean };

let engine: Promise<OcrEngine> | undefined;
let lexicon: Promise<Lexicon> | undefined;

async function run(job: OcrJob, port: NonNullable<typeof parentPort>): Promise<void> {
  const data = workerData as OcrThreadData | undefined;
  engine ??= TesseractEngine.start();
  const issuers = data?.issuers ?? [];
  lexicon ??= assetLexicon(
    issuers.map(([, name]) => name),
    data?.descriptions ?? [],
    issuers,
  );
  const done = new Map(job.done.map((page) => [page.number, page]));
  const pages = await readScan(job.bytes, await engine, {
    kind: job.kind,
    done,
    onPage: (page, total) => port.postMessage({ id: job.id, kind: 'page', page, total } satisfies OcrAnswer),
  });
  // A scan's own filing date (a 278-T's received stamp) checks its rows' dates when the index gave none.
  const filedDate = job.filedDate ?? judgedFiler(pages)?.received_date ?? null;
  const rows = formReader(job.kind).rows(pages, filedDate, await lexicon);
  port.postMessage({ id: job.id, kind: 'done', pages, rows } satisfies OcrAnswer);
}

// Reading a scan takes seconds of CPU a page; the API thread of the same process gets the core
// first. Linux keeps a nice value per thread (the engine's own threads, started from this one,
// inherit it); elsewhere the call would lower the whole process, so it is left out there.
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);

const port = parentPort;
if (port) {
  // One document at a time: the engine is one Tesseract instance.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (job: OcrJob) => {
    queue = queue.then(() =>
      run(job, port).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        port.postMessage({
          id: job.id,
          kind: 'error',
          message,
          unreadable: /unreadable (PDF|page images)|Invalid PDF/i.test(message),
        } satisfies OcrAnswer);
      }),
    );
  });
}
