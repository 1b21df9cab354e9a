// Worker thread body of trainLsaOffThread: one training, its model posted back, then the thread
// ends. The arrays are transferred, not copied.
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { type LsaOptions, trainLsa } from './lsa.js';

export interface LsaThreadData {
  texts: string[];
  options: LsaOptions;
}

// The API thread of the same process gets the core first (Linux keeps a nice value per thread;
// elsewhere the call would lower the whole process, so it is left out there).
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);

const { texts, options } = workerData as LsaThreadData;
const model = trainLsa(texts, options);
parentPort?.postMessage(model, [model.idf.buffer as ArrayBuffer, model.projection.buffer as ArrayBuffer]);
