// Worker thread body of ClusterIndex.buildOffThread: one k-means over the vectors it is given,
// the centroids and every vector's list posted back, then the thread ends. The arrays are
// transferred, not copied.
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { type KMeansOptions, kMeans } from './kmeans.js';

export interface KMeansThreadData {
  data: Float32Array;
  dimensions: number;
  slots: number;
  count: number;
  options: KMeansOptions;
}

// The other threads of the process (the one that holds the database's write lock, the API's
// event loop) get the core first (Linux keeps a nice value per thread; elsewhere the call would
// lower the whole process, so it is left out there).
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);

const { data, dimensions, slots, count, options } = workerData as KMeansThreadData;
const steps = kMeans(data, dimensions, slots, count, options);
let step = steps.next();
while (!step.done) step = steps.next();
const result = step.value;
parentPort?.postMessage(result, [result.centroids.buffer as ArrayBuffer, result.lists.buffer as ArrayBuffer]);
