// Where the OCR engine keeps what it read (DCLEDGER_OCR_READINGS_DIR). Read by the engine itself,
// in whichever thread runs it: a worker thread has the environment of the process that started it.
import type { Env } from './read.js';

/**
 * DCLEDGER_OCR_READINGS_DIR: a directory where the OCR engine keeps its reading of each cell image,
 * so that reading the same scan again (a re-parse after an upgrade of the row rules, the test
 * suite's files that read the same scans) takes the kept reading instead of the engine's seconds.
 * Unset (the default): nothing is kept.
 */
export function readOcrReadingsDir(env: Env = process.env): string | undefined {
  return env.DCLEDGER_OCR_READINGS_DIR?.trim() || undefined;
}
