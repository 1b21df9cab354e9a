// Where the threads and child processes the app starts load their code from, when the app itself
// runs from its TypeScript sources (tests, `npm run dev`). Read wherever a thread or process starts.
import type { Env } from './read.js';

/**
 * DCLEDGER_THREADS_FROM_BUILD=1: from the sources, start each thread and child process from its
 * compiled twin in dist/ (the build `npm start` runs) instead of loading its TypeScript through
 * tsx, which costs every one of them seconds of start-up. Only for a dist/ built from these very
 * sources: the test suite's setup (test/global-setup.ts) compiles it when a source is newer and
 * then sets this. Unset (the default): threads and processes load the sources as their parent does.
 */
export function readThreadsFromBuild(env: Env = process.env): boolean {
  return env.DCLEDGER_THREADS_FROM_BUILD?.trim() === '1';
}
