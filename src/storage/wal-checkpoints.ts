// WAL checkpoints off the serving thread. SQLite copies the write-ahead log back into the
// database file every 1,000 pages by default, inside whichever commit crosses that size: on a
// server that commits a charge for every call, one call in about a hundred stalled the event loop
// for 4-7 ms while its commit ran the checkpoint (and every request in flight waited with it),
// which set the tail of the latency (BENCHMARKS.md's notes). A long-running process instead turns
// the automatic checkpoint off on its connection and runs a PASSIVE checkpoint every
// CHECKPOINT_INTERVAL_MS from a worker thread on its own connection: PASSIVE never waits for or
// blocks a reader or a writer, it copies what no reader still needs. Should the thread fail,
// the connection's automatic checkpoints come back, so the log can never grow without bound.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Store } from './database.js';
import { sqliteHandleOf } from './sqlite-hot-path.js';

export const CHECKPOINT_INTERVAL_MS = 100;
/** SQLite's own default for wal_autocheckpoint, restored when the thread stops. */
const AUTOCHECKPOINT_PAGES = 1000;

// The thread's whole program: plain JavaScript, so it runs the same from the build and from the
// TypeScript sources (a worker thread does not inherit a TypeScript loader on Node 20).
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.driver).then(({ default: Database }) => {
  const db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 1000');
  const timer = setInterval(() => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy past the timeout (another process is checkpointing): the next tick tries again.
    }
  }, workerData.intervalMs);
  parentPort.once('message', () => {
    clearInterval(timer);
    db.close();
    parentPort.close();
  });
  parentPort.postMessage('ready');
});
`;

export interface WalCheckpoints {
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `store`'s SQLite file from a worker thread and turns the automatic
 * checkpoint off on the store's connection. Nothing to do (undefined) on PostgreSQL or for an
 * in-memory database. Resolves once the thread has opened the file.
 */
export async function startWalCheckpoints(store: Store): Promise<WalCheckpoints | undefined> {
  const handle = sqliteHandleOf(store.db);
  if (!handle || handle.memory) return undefined;
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: {
      driver: pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href,
      file: handle.name,
      intervalMs: CHECKPOINT_INTERVAL_MS,
    },
  });
  const automatic = () => {
    if (handle.open) handle.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      automatic();
      resolve();
    });
  });
  worker.on('error', () => {
    // The thread is gone (its exit follows): the connection checkpoints by itself again.
  });
  const ready = await new Promise<boolean>((resolve) => {
    worker.once('message', () => resolve(true));
    void exited.then(() => resolve(false));
  });
  if (!ready) return undefined;
  // Running, the thread never keeps a process alive by itself; `stop` ends it on a clean shutdown.
  // (Referenced while it starts and while it stops: an unreferenced thread's messages and exit do
  // not keep the event loop alive, and a process with nothing else left would end before them.)
  worker.unref();
  handle.pragma('wal_autocheckpoint = 0');
  return {
    stop: async () => {
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
