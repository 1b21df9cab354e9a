// Deterministic pseudo-random numbers for tests that build constructed data (mulberry32): the same
// seed gives the same sequence on every run and machine.

/** A generator of numbers in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
