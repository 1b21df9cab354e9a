// The wall time of each part of a long job (enrich's phases, the stored results' parts), reported
// in seconds beside what the job did.

/** A record of seconds per part, and `timed`, which runs a part and writes its time there. */
export function timedParts(beforeEach: () => void = () => undefined): {
  seconds: Record<string, number>;
  timed: <T>(part: string, work: () => Promise<T>) => Promise<T>;
} {
  const seconds: Record<string, number> = {};
  const timed = async <T>(part: string, work: () => Promise<T>): Promise<T> => {
    beforeEach();
    const started = performance.now();
    try {
      return await work();
    } finally {
      seconds[part] = Math.round(performance.now() - started) / 1000;
    }
  };
  return { seconds, timed };
}
