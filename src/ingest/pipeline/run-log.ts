// The log of one ingest run: `serve`'s schedule hands the pipeline this progress, built on the run's
// child logger, so the per-source lines carry the same run id as the run's start and end lines.
import { reportSource, reportStored } from './report.js';
import type { IngestProgress } from './run.js';

export interface RunLogger {
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/** At most one progress line a source per this many milliseconds (and one when it is done). */
export const PROGRESS_LINE_MS = 15_000;

/**
 * `now` is the clock of the rate and the spacing of the lines (milliseconds). Each progress line
 * says, for the source's documents of this run, how many are stored of how many owed, the rate
 * since the source started storing and the time left at that rate: the first fill of an empty
 * database is long, and the log says how far it is.
 */
export function loggedProgress(log: RunLogger, now: () => number = Date.now): IngestProgress {
  const started = new Map<string, number>();
  const lastLine = new Map<string, number>();
  return {
    start(source, total) {
      started.set(source, now());
      lastLine.set(source, now());
      log.info({ ingest: source, documents: total }, 'ingest source started');
    },
    advance(source, done, total) {
      const at = now();
      if (done !== total && at - (lastLine.get(source) ?? 0) < PROGRESS_LINE_MS) return;
      lastLine.set(source, at);
      const minutes = (at - (started.get(source) ?? at)) / 60_000;
      const rate = minutes > 0 ? Math.round((done / minutes) * 10) / 10 : null;
      const eta = rate && total !== null ? Math.round(((total - done) / rate) * 60) : null;
      log.info(
        { ingest: source, done, documents: total, rate_per_minute: rate, eta_seconds: eta },
        'ingest source progress',
      );
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
