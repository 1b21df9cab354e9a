// Latent semantic analysis trained on our own corpus: the default embedding model, which needs
// no network and no model download. A TF-IDF term-document matrix of the indexed texts is
// factored by a randomized truncated SVD (Halko, Martinsson & Tropp 2011); a text's embedding is
// its TF-IDF vector projected on the top right singular vectors, unit length. Words that occur in
// the same records ("airline", "Delta Air Lines", "Industrials") land near each other; words the
// corpus never uses have no vector. Pure: texts in, model out.
import { tokenize } from './text.js';

export interface LsaModel {
  terms: string[];
  idf: Float32Array;
  /** terms.length × dimensions, row-major: term i's coordinates at i*dimensions. */
  projection: Float32Array;
  dimensions: number;
}

export interface LsaOptions {
  dimensions: number;
  /** Terms kept (by document frequency); rarer terms are dropped. */
  maxTerms: number;
  /** Power iterations of the randomized SVD (more: better subspace, slower). */
  powerIterations: number;
  seed: number;
}

export const DEFAULT_LSA_OPTIONS: LsaOptions = {
  dimensions: 96,
  maxTerms: 12_000,
  powerIterations: 1,
  seed: 20_261_123,
};

/** A small deterministic PRNG (mulberry32) turned Gaussian (Box-Muller): same corpus, same model. */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

interface SparseRow {
  cols: Int32Array;
  values: Float64Array;
}

function weighRow(
  tokens: readonly string[],
  index: ReadonlyMap<string, number>,
  idf: ArrayLike<number>,
): SparseRow {
  const counts = new Map<number, number>();
  for (const token of tokens) {
    const column = index.get(token);
    if (column !== undefined) counts.set(column, (counts.get(column) ?? 0) + 1);
  }
  const cols = new Int32Array(counts.size);
  const values = new Float64Array(counts.size);
  let i = 0;
  let norm = 0;
  for (const [column, count] of counts) {
    const value = (1 + Math.log(count)) * (idf[column] ?? 0);
    cols[i] = column;
    values[i] = value;
    norm += value * value;
    i++;
  }
  norm = Math.sqrt(norm) || 1;
  for (let j = 0; j < values.length; j++) values[j] = (values[j] ?? 0) / norm;
  return { cols, values };
}

/** Orthonormalizes the columns of an n×l column-major matrix in place (modified Gram-Schmidt). */
function orthonormalize(matrix: Float64Array, n: number, l: number): void {
  for (let j = 0; j < l; j++) {
    const cj = matrix.subarray(j * n, (j + 1) * n);
    for (let i = 0; i < j; i++) {
      const ci = matrix.subarray(i * n, (i + 1) * n);
      let dot = 0;
      for (let r = 0; r < n; r++) dot += (ci[r] as number) * (cj[r] as number);
      for (let r = 0; r < n; r++) cj[r] = (cj[r] as number) - dot * (ci[r] as number);
    }
    let norm = 0;
    for (let r = 0; r < n; r++) norm += (cj[r] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let r = 0; r < n; r++) cj[r] = (cj[r] as number) / norm;
  }
}

/** Y (n×l) = A X, A sparse rows (n×v), X v×l column-major. */
function multiply(rows: readonly SparseRow[], x: Float64Array, v: number, l: number): Float64Array {
  const n = rows.length;
  const y = new Float64Array(n * l);
  for (let r = 0; r < n; r++) {
    const row = rows[r] as SparseRow;
    for (let k = 0; k < row.cols.length; k++) {
      const column = row.cols[k] ?? 0;
      const value = row.values[k] ?? 0;
      for (let j = 0; j < l; j++) y[j * n + r] = (y[j * n + r] ?? 0) + value * (x[j * v + column] ?? 0);
    }
  }
  return y;
}

/** Z (v×l) = Aᵀ Y, Y n×l column-major. */
function multiplyTransposed(rows: readonly SparseRow[], y: Float64Array, v: number, l: number): Float64Array {
  const n = rows.length;
  const z = new Float64Array(v * l);
  for (let r = 0; r < n; r++) {
    const row = rows[r] as SparseRow;
    for (let k = 0; k < row.cols.length; k++) {
      const column = row.cols[k] ?? 0;
      const value = row.values[k] ?? 0;
      for (let j = 0; j < l; j++) z[j * v + column] = (z[j * v + column] ?? 0) + value * (y[j * n + r] ?? 0);
    }
  }
  return z;
}

/** Eigen-decomposition of a symmetric l×l matrix (cyclic Jacobi): values and column eigenvectors. */
export function symmetricEigen(
  input: Float64Array,
  l: number,
): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(input);
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  const at = (i: number, j: number) => a[i * l + j] ?? 0;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let i = 0; i < l; i++) for (let j = i + 1; j < l; j++) off += at(i, j) ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < l; p++) {
      for (let q = p + 1; q < l; q++) {
        const apq = at(p, q);
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (at(q, q) - at(p, p)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = at(k, p);
          const akq = at(k, q);
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = at(p, k);
          const aqk = at(q, k);
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p] ?? 0;
          const vkq = v[k * l + q] ?? 0;
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(l);
  for (let i = 0; i < l; i++) values[i] = at(i, i);
  return { values, vectors: v };
}

export function trainLsa(texts: readonly string[], options: LsaOptions = DEFAULT_LSA_OPTIONS): LsaModel {
  const documents = texts.map((text) => tokenize(text));
  const df = new Map<string, number>();
  for (const tokens of documents)
    for (const token of new Set(tokens)) df.set(token, (df.get(token) ?? 0) + 1);
  const n = documents.length;
  const terms = [...df]
    .filter(([, count]) => count >= 2 && count <= n * 0.5)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, options.maxTerms)
    .map(([term]) => term)
    .sort();
  const v = terms.length;
  const index = new Map(terms.map((term, i) => [term, i]));
  const idf = new Float32Array(v);
  for (let i = 0; i < v; i++) idf[i] = Math.log(n / (df.get(terms[i] ?? '') ?? 1));
  const rows = documents.map((tokens) => weighRow(tokens, index, idf)).filter((row) => row.cols.length > 0);
  const k = Math.max(1, Math.min(options.dimensions, v, rows.length));
  const l = Math.min(k + 10, v, rows.length);
  const random = gaussian(options.seed);
  const omega = new Float64Array(v * l);
  for (let i = 0; i < omega.length; i++) omega[i] = random();
  // Range of A: Q = orth((A Aᵀ)^q A Ω).
  let q = multiply(rows, omega, v, l);
  orthonormalize(q, rows.length, l);
  for (let iteration = 0; iteration < options.powerIterations; iteration++) {
    const z = multiplyTransposed(rows, q, v, l);
    orthonormalize(z, v, l);
    q = multiply(rows, z, v, l);
    orthonormalize(q, rows.length, l);
  }
  // B = Qᵀ A (l×v, stored as Aᵀ Q: v×l column-major); B Bᵀ = U S² Uᵀ; right vectors V = Bᵀ U / s.
  const bt = multiplyTransposed(rows, q, v, l);
  const gram = new Float64Array(l * l);
  for (let i = 0; i < l; i++) {
    for (let j = i; j < l; j++) {
      let dot = 0;
      for (let r = 0; r < v; r++) dot += (bt[i * v + r] ?? 0) * (bt[j * v + r] ?? 0);
      gram[i * l + j] = dot;
      gram[j * l + i] = dot;
    }
  }
  const { values, vectors } = symmetricEigen(gram, l);
  const order = [...values.keys()].sort((a, b) => (values[b] ?? 0) - (values[a] ?? 0)).slice(0, k);
  const projection = new Float32Array(v * k);
  order.forEach((component, d) => {
    const sigma = Math.sqrt(Math.max(values[component] ?? 0, 1e-12));
    for (let r = 0; r < v; r++) {
      let sum = 0;
      for (let i = 0; i < l; i++) sum += (bt[i * v + r] ?? 0) * (vectors[i * l + component] ?? 0);
      // Bᵀu = s·v: divided by s, the right singular vector. A text projected on them lands on
      // its row of U·S, so strong directions weigh more.
      projection[r * k + d] = sum / sigma;
    }
  });
  return { terms, idf, projection, dimensions: k };
}

/** A text's unit-length embedding; all zeros when it has no word the model knows. */
export function embedLsa(model: LsaModel, text: string, index: ReadonlyMap<string, number>): Float32Array {
  const row = weighRow(tokenize(text), index, model.idf);
  const out = new Float32Array(model.dimensions);
  const k = model.dimensions;
  for (let i = 0; i < row.cols.length; i++) {
    const base = (row.cols[i] ?? 0) * k;
    const value = row.values[i] ?? 0;
    for (let d = 0; d < k; d++) out[d] = (out[d] ?? 0) + value * (model.projection[base + d] ?? 0);
  }
  let norm = 0;
  for (let d = 0; d < k; d++) norm += (out[d] ?? 0) ** 2;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let d = 0; d < k; d++) out[d] = (out[d] ?? 0) / norm;
  return out;
}

/** The model as bytes for the search_models table: a JSON header line, then the float arrays. */
export function serializeLsa(model: LsaModel): Uint8Array {
  const header = new TextEncoder().encode(
    `${JSON.stringify({ terms: model.terms, dimensions: model.dimensions })}\n`,
  );
  const pad = (4 - (header.length % 4)) % 4;
  const out = new Uint8Array(header.length + pad + model.idf.byteLength + model.projection.byteLength);
  out.set(header, 0);
  out.fill(32, header.length, header.length + pad);
  out.set(new Uint8Array(model.idf.buffer, model.idf.byteOffset, model.idf.byteLength), header.length + pad);
  out.set(
    new Uint8Array(model.projection.buffer, model.projection.byteOffset, model.projection.byteLength),
    header.length + pad + model.idf.byteLength,
  );
  return out;
}

export function deserializeLsa(bytes: Uint8Array): LsaModel {
  const newline = bytes.indexOf(10);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(0, newline))) as {
    terms: string[];
    dimensions: number;
  };
  let offset = newline + 1;
  while (offset % 4 !== 0) offset++;
  const copy = bytes.slice(offset);
  const floats = new Float32Array(copy.buffer, copy.byteOffset, copy.byteLength / 4);
  const v = header.terms.length;
  return {
    terms: header.terms,
    dimensions: header.dimensions,
    idf: floats.slice(0, v),
    projection: floats.slice(v, v + v * header.dimensions),
  };
}
