// The ingest schedule of `serve`: a run shortly after start, then one every interval, never two at
// once. Stopping aborts the run in progress between documents (it resumes on the next start).
import type { IngestReport } from './report.js';

export interface IngestScheduleOptions {
  intervalMs: number;
  /** Delay before the first run, so the API is up before ingestion competes for the database. */
  firstRunDelayMs?: number;
  run: (signal: AbortSignal) => Promise<IngestReport>;
  onReport: (report: IngestReport) => void;
  onError: (error: unknown) => void;
}

export interface IngestSchedule {
  /** Resolves when the run in progress (if any) has stopped. */
  stop(): Promise<void>;
}

export function startIngestSchedule(options: IngestScheduleOptions): IngestSchedule {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let controller: AbortController | undefined;
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(tick, Math.max(0, delayMs));
    // The schedule alone must not keep a process alive that is otherwise shutting down.
    timer.unref();
  };

  const tick = () => {
    const started = Date.now();
    controller = new AbortController();
    running = options
      .run(controller.signal)
      .then(options.onReport, options.onError)
      .finally(() => {
        running = undefined;
        schedule(options.intervalMs - (Date.now() - started));
      });
  };

  schedule(options.firstRunDelayMs ?? 5_000);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller?.abort();
      await running;
    },
  };
}
