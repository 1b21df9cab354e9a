// The thread that draws review pictures (review-crops.ts): drawing a scanned page is hundreds of
// milliseconds of CPU, which on the API's thread would hold every other call for that long.
import { constants, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { rowCropPng } from '../ingest/ocr/row-crop.js';
import type { ReviewRegion } from '../ingest/pipeline/review-items.js';

// Below the API thread's priority, as the analytics threads (analytics-thread.ts says why this
// lowers the thread alone on Linux only). Only as the pool's thread: the server imports this module
// too (for `dcledger review`, which draws in process), and its main thread must keep its priority.
if (!isMainThread && process.platform === 'linux') setPriority(constants.priority.PRIORITY_BELOW_NORMAL);

export interface CropTask {
  document: Uint8Array;
  page: number;
  region: ReviewRegion;
}

export async function crop(task: CropTask): Promise<Uint8Array> {
  // The region carries the page's geometry as the OCR stage read it (turns, skew, resolution).
  return new Uint8Array(await rowCropPng(task.document, task.page, task.region, task.region));
}
