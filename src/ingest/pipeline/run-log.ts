// The log of one ingest run: `serve`'s schedule hands the pipeline this progress, built on the run's
// child logger, so the per-source lines carry the same run id as the run's start and end lines.
import { reportSource, reportStored } from './report.js';
import type { IngestProgress } from './run.js';

export interface RunLogger {
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/** Documents between two debug lines of a long source. */
const ADVANCE_EVERY = 50;

export function loggedProgress(log: RunLogger): IngestProgress {
  return {
    start(source, total) {
      log.info({ ingest: source, documents: total }, 'ingest source started');
    },
    advance(source, done, total) {
      if (done % ADVANCE_EVERY === 0 || done === total)
        log.debug({ ingest: source, done, documents: total }, 'ingest source progress');
    },
    page(source, document, done, total) {
      log.info({ ingest: source, document, page: done, pages: total }, 'ocr page read');
    },
    finish(report) {
      log.info(
        { ingest: reportSource(report), status: report.status, stored: reportStored(report) },
        'ingest source finished',
      );
    },
  };
}
