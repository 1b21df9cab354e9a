// Settings the test suite and the benchmark read, from the same environment as the service's.
import type { Env } from './read.js';

/** Settings the test suite and the benchmark read (not the service itself). */
export function readTestSettings(env: Env = process.env): {
  dataDir: string | undefined;
  postgresUrl: string | undefined;
  /** CI=true: missing shared data fails the run instead of skipping the real-data tests. */
  ci: boolean;
  /** Cases per route of the fuzz gate (src/http/fuzz.test.ts); `npm run fuzz` raises it. */
  fuzzRuns: number;
  /** Replays a fuzz failure: the seed fast-check printed. */
  fuzzSeed: number | undefined;
} {
  const fuzzRuns = Number.parseInt(env.DCLEDGER_FUZZ_RUNS ?? '', 10);
  const fuzzSeed = Number.parseInt(env.DCLEDGER_FUZZ_SEED ?? '', 10);
  return {
    ci: ['1', 'true'].includes((env.CI ?? '').trim().toLowerCase()),
    fuzzRuns: Number.isSafeInteger(fuzzRuns) && fuzzRuns > 0 ? fuzzRuns : 200,
    fuzzSeed: Number.isSafeInteger(fuzzSeed) ? fuzzSeed : undefined,
    dataDir: env.DCLEDGER_DATA_DIR?.trim() || undefined,
    postgresUrl: env.DCLEDGER_TEST_DATABASE_URL?.trim() || undefined,
  };
}
