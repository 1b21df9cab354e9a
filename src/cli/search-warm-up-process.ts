// Worker thread body of the serve warm-up (search-warm-up.ts): the whole preparation of the
// semantic-search index (documents, model training, embedding, the in-memory vector index trained
// and stored) on a connection of its own, so the API's event loop never runs it. The thread
// reports the engine's progress and how it ended over its port, then closes its connection and
// ends; its memory (the vectors it held, the texts it read) goes with it. The API thread then
// reads what it stored.
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseConfig, EmbeddingsConfig } from '../config.js';
import { REMOTE_EMBED_BUDGET } from '../search/semantic.js';
import { openStore } from '../storage/database.js';
import { semanticSearchFromConfig } from './search.js';

export interface WarmUpThreadData {
  database: DatabaseConfig;
  embeddings: EmbeddingsConfig;
  /** The clock's time at the start (epoch ms): the documents' stamps and the model's. */
  now: number;
}

/** What the thread posts: progress as the engine reports it, then one of the three ends. */
export type WarmUpThreadMessage =
  | { type: 'progress'; stage: string; done: number; total: number }
  | { type: 'prepared' }
  | { type: 'stopped' }
  | { type: 'failed'; name: string; message: string; stack: string | undefined };

// The API thread of the same process gets the core first (Linux keeps a nice value per thread;
// elsewhere the call would lower the whole process, so it is left out there).
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);

const data = workerData as WarmUpThreadData;
const post = (message: WarmUpThreadMessage) => parentPort?.postMessage(message);
const store = openStore(data.database);
const engine = semanticSearchFromConfig(store.db, data.embeddings, (stage, done, total) =>
  post({ type: 'progress', stage, done, total }),
);
// The server is stopping: the engine ends at its next step.
parentPort?.on('message', (message: unknown) => {
  if (message === 'stop') engine.stop();
});

try {
  await engine.prepare(new Date(data.now), REMOTE_EMBED_BUDGET);
  await engine.vectorIndexReady();
  post(engine.stopped ? { type: 'stopped' } : { type: 'prepared' });
} catch (error) {
  if (engine.stopped) post({ type: 'stopped' });
  else {
    const failure = error instanceof Error ? error : new Error(String(error));
    post({ type: 'failed', name: failure.name, message: failure.message, stack: failure.stack });
  }
} finally {
  await store.close();
  parentPort?.close();
}
