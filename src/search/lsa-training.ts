// Trains the LSA model in a worker thread. The randomized SVD is one synchronous computation (a
// second and more on a corpus of a hundred thousand documents); on the thread that serves the API
// every request would wait that long behind it.
import { Worker } from 'node:worker_threads';
import { threadModule } from '../threads.js';
import type { LsaModel, LsaOptions } from './lsa.js';
import type { LsaThreadData } from './lsa-thread.js';

/** trainLsa(texts, options), computed in a thread of its own; the same model, bit for bit. */
export function trainLsaOffThread(texts: readonly string[], options: LsaOptions): Promise<LsaModel> {
  const workerData: LsaThreadData = { texts: [...texts], options };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(threadModule(import.meta.url, 'lsa-thread')), { workerData });
    let settled = false;
    worker.once('message', (model: LsaModel) => {
      settled = true;
      resolve(model);
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the LSA training thread ended (exit code ${code}) without a model`));
    });
  });
}
