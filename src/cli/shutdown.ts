// Graceful shutdown of a long-running command: on SIGTERM or SIGINT, run `stop` once (drain HTTP,
// finish in-flight work, release leases), then exit 0; exit 1 when it fails or outlasts `timeoutMs`.
// A second signal while stopping exits at once.
import type { FastifyBaseLogger } from 'fastify';

export function onShutdownSignal(log: FastifyBaseLogger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    const started = Date.now();
    log.info({ signal, timeout_ms: timeoutMs }, 'shutting down');
    // Not unreferenced: the timer also keeps the process alive until `stop` settles. Some of what
    // a stop waits for (a worker thread's exit) holds no reference on the event loop, and a loop
    // left empty would end the process with code 0 before the stop finished or said so.
    setTimeout(() => {
      log.error({ timeout_ms: timeoutMs }, 'shutdown took too long; exiting with work unfinished');
      process.exit(1);
    }, timeoutMs);
    stop().then(
      () => {
        log.info({ ms: Date.now() - started }, 'shut down cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
