// The OCR stage's one entry point: the bytes of a scanned document in, the same ParsedDocument
// every parser returns out, with each row's confidences (`parse_method: "ocr"`). The reading runs
// in a worker thread (./worker.ts), never on the caller's event loop. Callers that read many
// documents pass one long-lived worker; a one-off caller (`dcledger parse`) lets this start and
// stop its own.
import { createHash } from 'node:crypto';
import type { DocumentKind, FilingInfo, ParsedDocument, TradeSource } from '../sources/document.js';
import { type PageCheckpoint, runOcrStage } from './stage.js';
import { OcrWorker } from './worker.js';

export { type RowAsRead, rowAsRead } from './scanned-document.js';
export { OCR_READER_VERSION, type PageCheckpoint } from './stage.js';
export { OcrReadError, OcrUnreadableError, OcrWorker, OcrWorkerError } from './worker.js';

export interface ReadScannedOptions {
  source?: TradeSource;
  kind?: DocumentKind;
  /** What is known of the filing (from the index): its date makes impossible dates doubtful. */
  filing?: Partial<FilingInfo>;
  /** A worker to read with (kept by the caller); without one a worker is started and stopped. */
  worker?: OcrWorker;
  /** The database's companies, each as its listed symbol and name (they check the asset names read). */
  issuers?: ReadonlyArray<readonly [string, string]>;
  /** Asset descriptions of stored trades, whose longer words the lexicon also knows. */
  descriptions?: readonly string[];
  /** Where finished pages are kept: an interrupted run reads only the pages left. */
  checkpoint?: PageCheckpoint;
  /** After each page: pages done of the document's total. */
  progress?: (done: number, total: number) => void;
}

export async function readScannedDocument(
  bytes: Uint8Array,
  options: ReadScannedOptions = {},
): Promise<ParsedDocument> {
  const worker =
    options.worker ??
    new OcrWorker({
      ...(options.issuers ? { issuers: options.issuers } : {}),
      ...(options.descriptions ? { descriptions: options.descriptions } : {}),
    });
  try {
    return await runOcrStage(
      {
        bytes,
        documentKey: createHash('sha256').update(bytes).digest('hex'),
        filedDate: options.filing?.filed_date ?? null,
        source: options.source ?? 'house_clerk',
        kind: options.kind ?? 'house_ptr_pdf',
        ...(options.filing ? { filing: options.filing } : {}),
      },
      {
        worker,
        ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
        ...(options.progress ? { progress: options.progress } : {}),
      },
    );
  } finally {
    if (!options.worker) await worker.close();
  }
}
