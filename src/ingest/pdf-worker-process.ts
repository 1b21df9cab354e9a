// Body of PdfTextWorker's child process: pdf.js is loaded here, never in a process that serves the
// API, because its legacy build replaces globals (JSON.parse among them) of the realm it runs in,
// and because a document can make it take any amount of memory: the process runs under a heap
// limit and, past it, dies alone.
import { extractPdfText, PdfReadError } from './pdf-text.js';

export interface PdfJob {
  id: number;
  bytes: Uint8Array;
}

export type PdfAnswer =
  | { id: number; ok: true; text: Awaited<ReturnType<typeof extractPdfText>> }
  | { id: number; ok: false; unreadable: boolean; message: string };

const send = process.send?.bind(process);
if (send) {
  // One document at a time: pdf.js read two documents at once in this realm answers one of them
  // "Invalid page request", and a queue also keeps the heap to one document's.
  let queue: Promise<void> = Promise.resolve();
  process.on('message', (job: PdfJob) => {
    queue = queue.then(() =>
      extractPdfText(job.bytes).then(
        (text) => void send({ id: job.id, ok: true, text } satisfies PdfAnswer),
        (error: unknown) =>
          void send({
            id: job.id,
            ok: false,
            unreadable: error instanceof PdfReadError,
            message: error instanceof Error ? error.message : String(error),
          } satisfies PdfAnswer),
      ),
    );
  });
  // The parent closing the channel (its run is over, or it died) ends this process.
  process.on('disconnect', () => process.exit(0));
}
