// `dcledger ingest` run by hand logs like a scheduled run: a scheduler_runs row (holder
// `cli:<host>:<pid>`) gives the run its id, and every line of the run (start, per source, end)
// goes through a child logger carrying it as `run`, with the same messages as serve's schedule.
// The events the run emits carry the id too (events.run_id), and so do the worker's delivery lines.
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { IngestConfig } from '../../config.js';
import { finishRun, startManualRun } from '../../storage/repositories/role-leases.js';
import type { Database } from '../../storage/schema.js';
import type { IngestReport } from './report.js';
import { reportLine, reportSource } from './report.js';
import type { IngestProgress } from './run.js';
import { loggedProgress } from './run-log.js';
import type { SchedulerLogger } from './scheduler-lease.js';
import { type IngestOptions, ingestSources } from './setup.js';

export interface ManualRunOptions extends IngestOptions {
  /** The command's logger; the run logs through a child of it that carries `run`. */
  log: SchedulerLogger;
}

/** Both the terminal's progress and the run log see every step. */
function bothProgress(first: IngestProgress | undefined, second: IngestProgress): IngestProgress {
  return {
    start(connector, total) {
      first?.start(connector, total);
      second.start(connector, total);
    },
    advance(connector, done, total) {
      first?.advance(connector, done, total);
      second.advance(connector, done, total);
    },
    page(connector, document, done, total) {
      first?.page?.(connector, document, done, total);
      second.page?.(connector, document, done, total);
    },
    finish(report) {
      first?.finish(report);
      second.finish(report);
    },
  };
}

export async function manualIngestRun(
  db: Kysely<Database>,
  config: IngestConfig,
  options: ManualRunOptions,
): Promise<{ runId: number; report: IngestReport }> {
  const holder = `cli:${hostname()}:${process.pid}`;
  const clock = options.clock ?? (() => new Date());
  const runId = await startManualRun(db, holder, clock().toISOString());
  const runLog = options.log.child({ run: runId });
  runLog.info({ holder }, 'manual ingest run started');
  let report: IngestReport;
  try {
    report = await ingestSources(db, config, {
      ...options,
      progress: bothProgress(options.progress, loggedProgress(runLog)),
      requestedBy: options.requestedBy ?? `ingest run ${runId}`,
      runId,
    });
  } catch (error) {
    const status = options.signal?.aborted ? 'aborted' : 'failed';
    const message = error instanceof Error ? error.message : String(error);
    await finishRun(db, runId, { status, error: message, now: clock().toISOString() });
    runLog.error({ status, err: error }, 'ingest run failed');
    throw error;
  }
  const status = options.signal?.aborted ? 'aborted' : 'completed';
  await finishRun(db, runId, { status, error: null, now: clock().toISOString() });
  for (const source of [...report.sources, ...(report.records ?? [])])
    runLog.info({ ingest: reportSource(source), status: source.status }, reportLine(source));
  runLog.info({ status }, 'manual ingest run finished');
  return { runId, report };
}
