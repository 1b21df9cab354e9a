// Worker thread body of PdfTextWorker: pdf.js is loaded here, never in the thread that serves the
// API, because its legacy build replaces globals (JSON.parse among them) of the realm it runs in.
import { parentPort } from 'node:worker_threads';
import { extractPdfText, PdfReadError } from './pdf-text.js';

export interface PdfJob {
  id: number;
  bytes: Uint8Array;
}

export type PdfAnswer =
  | { id: number; ok: true; text: Awaited<ReturnType<typeof extractPdfText>> }
  | { id: number; ok: false; unreadable: boolean; message: string };

const port = parentPort;
if (port) {
  port.on('message', (job: PdfJob) => {
    extractPdfText(job.bytes).then(
      (text) => port.postMessage({ id: job.id, ok: true, text } satisfies PdfAnswer),
      (error: unknown) =>
        port.postMessage({
          id: job.id,
          ok: false,
          unreadable: error instanceof PdfReadError,
          message: error instanceof Error ? error.message : String(error),
        } satisfies PdfAnswer),
    );
  });
}
