// The OCR stage: document bytes in, rows with their confidences out, one page at a time. It is
// what the ingest pipeline calls for a document without usable text (a House scan, a scanned
// OGE 278-T, a Senate paper filing's page images), and what `dcledger parse` calls for a scan.
// Each finished page is handed to a checkpoint: a run that stops mid-document (a crash, a
// restart) finds its pages there and reads only the rest.
import type { ParsedDocument } from '../sources/document.js';
import type { ScannedPage } from './read-scan.js';
import { type ScannedContext, scannedDocument } from './scanned-document.js';
import type { OcrWorker } from './worker.js';

/** Bumped when the reader changes what it stores for a page: older checkpoints are not reused. */
export const OCR_READER_VERSION = 'forms-3';

/** Where finished pages are kept until their document is stored. */
export interface PageCheckpoint {
  load(documentKey: string): Promise<ScannedPage[]>;
  save(documentKey: string, page: ScannedPage): Promise<void>;
}

export interface OcrStageInput extends ScannedContext {
  bytes: Uint8Array;
  /** Identifies the bytes (their SHA-256): pages are checkpointed under it. */
  documentKey: string;
  /** The filing date: later or much earlier dates are doubtful. */
  filedDate: string | null;
}

export interface OcrStageOptions {
  worker: OcrWorker;
  checkpoint?: PageCheckpoint;
  /** After each page: pages done (read now or before) of the document's total. */
  progress?: (done: number, total: number) => void;
}

export async function runOcrStage(input: OcrStageInput, options: OcrStageOptions): Promise<ParsedDocument> {
  const key = `${OCR_READER_VERSION}:${input.documentKey}`;
  const done = (await options.checkpoint?.load(key)) ?? [];
  const reading = await options.worker.read(input.bytes, {
    done,
    filedDate: input.filedDate,
    kind: input.kind,
    onPage: async (page, total) => {
      await options.checkpoint?.save(key, page);
      options.progress?.(page.number, total);
    },
  });
  return scannedDocument(reading.pages, reading.rows, {
    source: input.source,
    kind: input.kind,
    filing: { filed_date: input.filedDate, ...input.filing },
  });
}
