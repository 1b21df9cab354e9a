// Body of the serve warm-up's child process (search-warm-up.ts): the whole preparation of the
// semantic-search index (documents, model training, embedding, the in-memory vector index trained
// and stored) on a connection of its own, so the API's event loop never runs it. It reports the
// engine's progress and how it ended over the IPC channel, closes its connection and ends. A
// process rather than a thread: what the preparation allocated (a hundred thousand vectors read
// and written, the documents' texts) goes back to the system when it ends, where a thread's
// would stay in the serving process's allocator. It ends by writing the vectors it holds, their
// in-memory index, its entity index and its model to one file, which the API's engine adopts
// instead of reading and building them again on its own thread.
import type { DatabaseConfig, EmbeddingsConfig } from '../config.js';
import { REMOTE_EMBED_BUDGET } from '../search/semantic.js';
import { openStore } from '../storage/database.js';
import { semanticSearchFromConfig } from './search.js';

export interface WarmUpSettings {
  database: DatabaseConfig;
  embeddings: EmbeddingsConfig;
  /** The clock's time at the start (epoch ms): the documents' stamps and the model's. */
  now: number;
  /** Where to write the vectors and their index for the API's engine (vector-table-file.ts). */
  tableFile: string;
}

/** What the parent sends: the settings once, then 'stop' when the server stops. */
export type WarmUpCommand = { type: 'start'; settings: WarmUpSettings } | { type: 'stop' };

/** What the child sends: progress as the engine reports it, then one of the three ends. */
export type WarmUpReport =
  | { type: 'progress'; stage: string; done: number; total: number }
  /** `table`: whether the vectors were written to the settings' tableFile. */
  | { type: 'prepared'; table: boolean }
  | { type: 'stopped' }
  | { type: 'failed'; name: string; message: string; stack: string | undefined };

/** Runs the preparation; returns how it ended (after closing the connection). */
async function warmUp(
  settings: WarmUpSettings,
  send: (report: WarmUpReport) => void,
): Promise<Exclude<WarmUpReport, { type: 'progress' }>> {
  // A background writer: on SQLite it leaves the write lock free between runs of its writes, where
  // the API's charges, which try for it without waiting, get in.
  const store = openStore(settings.database, { background: true });
  // Its CPU-heavy parts (embedding, the k-means) in threads of a lower priority: this thread holds
  // the write lock for its writes and keeps the server's priority (below).
  const engine = semanticSearchFromConfig(
    store.db,
    settings.embeddings,
    (stage, done, total) => send({ type: 'progress', stage, done, total }),
    { inThreads: true },
  );
  // The server is stopping (or gone): the engine ends at its next step.
  process.on('message', (command: WarmUpCommand) => {
    if (command.type === 'stop') engine.stop();
  });
  process.once('disconnect', () => engine.stop());
  try {
    await engine.prepare(new Date(settings.now), REMOTE_EMBED_BUDGET);
    await engine.vectorIndexReady();
    if (engine.stopped) return { type: 'stopped' };
    return { type: 'prepared', table: await engine.writeVectorTable(settings.tableFile) };
  } catch (error) {
    if (engine.stopped) return { type: 'stopped' };
    const failure = error instanceof Error ? error : new Error(String(error));
    return { type: 'failed', name: failure.name, message: failure.message, stack: failure.stack };
  } finally {
    await store.close();
  }
}

const channel = process.send?.bind(process);
if (channel) {
  // Left at the serving process's priority, unlike the other background threads: on SQLite this
  // process holds the write lock the API's charges wait for, and a lower priority on a busy
  // machine kept it off the core while it held it.
  const send = (report: WarmUpReport) => {
    if (process.connected) channel(report);
  };
  process.once('message', (command: WarmUpCommand) => {
    if (command.type !== 'start') return;
    void warmUp(command.settings, send).then((end) => {
      // Once the last report is sent the channel closes, and with it the process.
      if (process.connected) channel(end, () => process.disconnect());
    });
  });
}
