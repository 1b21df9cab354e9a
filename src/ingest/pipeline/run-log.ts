// The log of one ingest run: `serve`'s schedule hands the pipeline this progress, built on the run's
// child logger, so the per-source lines carry the same run id as the run's start and end lines.
import type { ConnectorName } from '../sources/connector.js';
import type { IngestProgress } from './run.js';

export interface RunLogger {
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/** Documents between two debug lines of a long source. */
const ADVANCE_EVERY = 50;

export function loggedProgress(log: RunLogger): IngestProgress {
  return {
    start(connector: ConnectorName, total: number) {
      log.info({ ingest: connector, documents: total }, 'ingest source started');
    },
    advance(connector: ConnectorName, done: number, total: number) {
      if (done % ADVANCE_EVERY === 0 || done === total)
        log.debug({ ingest: connector, done, documents: total }, 'ingest source progress');
    },
    finish(report) {
      log.info(
        { ingest: report.connector, status: report.status, stored: report.documents.stored },
        'ingest source finished',
      );
    },
  };
}
