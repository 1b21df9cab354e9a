// Worker thread body of LsaEmbedder.inThread: holds one model and embeds the texts each request
// brings, answering with their vectors (transferred, not copied), until the thread is ended.
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ThreadMessage } from '../threads.js';
import { embedLsa, type LsaModel } from './lsa.js';

// The other threads of the process (the one that holds the database's write lock, the API's
// event loop) get the core first (Linux keeps a nice value per thread; elsewhere the call would
// lower the whole process, so it is left out there).
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);

const model = workerData as LsaModel;
const index = new Map(model.terms.map((term, i) => [term, i]));
parentPort?.on('message', ({ id, body: texts }: ThreadMessage<string[]>) => {
  const vectors = texts.map((text) => embedLsa(model, text, index));
  const answer: ThreadMessage<Float32Array[]> = { id, body: vectors };
  parentPort?.postMessage(
    answer,
    vectors.map((vector) => vector.buffer as ArrayBuffer),
  );
});
