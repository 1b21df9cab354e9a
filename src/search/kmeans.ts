// The arithmetic of the inverted-file index's training (ClusterIndex.build in vector-scan.ts):
// spherical k-means over an evenly spread sample of the vectors, then every vector's nearest
// centroid. One implementation for both places it runs: on the caller's thread in slices, and
// whole in a worker thread (kmeans-thread.ts); either way the same centroids and lists, bit for bit.

/** The centroid (of `lists`, `dimensions` long each) with the largest dot product with the vector at data[base]. */
export function nearestCentroid(
  centroids: Float32Array,
  lists: number,
  dimensions: number,
  data: Float32Array,
  base: number,
): number {
  const d = dimensions;
  let best = 0;
  let bestDot = -Infinity;
  for (let c = 0; c < lists; c++) {
    let sum = 0;
    for (let j = 0; j < d; j++) sum += (centroids[c * d + j] ?? 0) * (data[base + j] ?? 0);
    if (sum > bestDot) {
      bestDot = sum;
      best = c;
    }
  }
  return best;
}

export interface KMeansOptions {
  /** Vectors the centroids are trained on, spread evenly over the table. */
  sample: number;
  iterations: number;
}

export interface KMeansResult {
  centroids: Float32Array;
  /** The nearest centroid of every vector (slot). */
  lists: Int32Array;
}

/**
 * Trains `count` centroids over the first `slots` vectors of `data` and finds every vector's
 * nearest one. A generator: it yields after each vector it handles, so a caller on a thread that
 * serves can stop between any two (`pace`); a thread of its own runs it through.
 */
export function* kMeans(
  data: Float32Array,
  dimensions: number,
  slots: number,
  count: number,
  options: KMeansOptions,
): Generator<void, KMeansResult, void> {
  const d = dimensions;
  const step = Math.max(1, Math.floor(slots / Math.min(slots, options.sample)));
  const sample: number[] = [];
  for (let slot = 0; slot < slots; slot += step) sample.push(slot);
  const lists = Math.max(1, Math.min(count, sample.length));
  const centroids = new Float32Array(lists * d);
  const spread = sample.length / lists;
  for (let c = 0; c < lists; c++) {
    const slot = sample[Math.floor(c * spread)] ?? 0;
    centroids.set(data.subarray(slot * d, slot * d + d), c * d);
  }
  for (let round = 0; round < options.iterations; round++) {
    const sums = new Float32Array(lists * d);
    for (const slot of sample) {
      const c = nearestCentroid(centroids, lists, d, data, slot * d);
      for (let j = 0; j < d; j++) sums[c * d + j] = (sums[c * d + j] ?? 0) + (data[slot * d + j] ?? 0);
      yield;
    }
    for (let c = 0; c < lists; c++) {
      let norm = 0;
      for (let j = 0; j < d; j++) norm += (sums[c * d + j] ?? 0) ** 2;
      // A centroid no sample chose keeps its place.
      if (norm === 0) continue;
      norm = Math.sqrt(norm);
      for (let j = 0; j < d; j++) centroids[c * d + j] = (sums[c * d + j] ?? 0) / norm;
    }
  }
  const nearest = new Int32Array(slots);
  for (let slot = 0; slot < slots; slot++) {
    nearest[slot] = nearestCentroid(centroids, lists, d, data, slot * d);
    yield;
  }
  return { centroids, lists: nearest };
}
