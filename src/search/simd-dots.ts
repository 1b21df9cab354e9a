// Dot products of a question with runs of vectors, four float lanes at a time (WebAssembly SIMD,
// f32x4), for the vector side of semantic search (vector-scan.ts). The vectors live in the
// module's own memory, so the scan reads them where they are: no copy of the table.
//
// Why a hand-written module: the kernel is one loop of 40 instructions, and no maintained npm
// package offers "dot products over a strided float table in caller-owned memory". Its bytes are
// assembled below from named opcodes (the WebAssembly 2.0 binary format, SIMD proposal opcodes),
// not copied from anywhere; simd-dots.test.ts checks it against a plain JavaScript sum.
// Node 20 and later run WebAssembly SIMD; where it is missing create() answers undefined and the
// scan stays in JavaScript.

/** Unsigned LEB128 (the binary format's integers). */
function uleb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return bytes;
}

const text = (name: string) => [...uleb(name.length), ...Array.from(name, (c) => c.charCodeAt(0))];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

// Opcodes used (core and SIMD).
const BLOCK = 0x02;
const LOOP = 0x03;
const END = 0x0b;
const BR_IF = 0x0d;
const VOID = 0x40;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const F32_ADD = 0x92;
const F32_STORE = 0x38;
const I32 = 0x7f;
const V128 = 0x7b;
const SIMD = 0xfd;
const v128Load = (offset: number) => [SIMD, ...uleb(0x00), 2, ...uleb(offset)];
const v128Zero = [SIMD, ...uleb(0x0c), ...new Array<number>(16).fill(0)];
const f32x4Add = [SIMD, ...uleb(0xe4)];
const f32x4Mul = [SIMD, ...uleb(0xe6)];
const f32x4Lane = (lane: number) => [SIMD, ...uleb(0x1f), lane];

// dots(q, v, n, blocks, out): for each of n vectors starting at byte v (each 8 * blocks floats,
// one after the other), out[i] = Σ q[j] * v_i[j], stored as f32 from byte `out` on. Two f32x4
// running sums (the additions of one do not wait on the other's).
const [Q, V, N, BLOCKS, OUT, J, QP, A, B] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const accumulate = (sum: number, offset: number) => [
  LOCAL_GET,
  sum,
  LOCAL_GET,
  V,
  ...v128Load(offset),
  LOCAL_GET,
  QP,
  ...v128Load(offset),
  ...f32x4Mul,
  ...f32x4Add,
  LOCAL_SET,
  sum,
];
const advance = (local: number, by: number) => [LOCAL_GET, local, I32_CONST, by, I32_ADD, LOCAL_SET, local];
const countDown = (local: number) => [LOCAL_GET, local, I32_CONST, 1, I32_SUB, LOCAL_TEE, local, BR_IF, 0];
const body = [
  // locals: j, qp (i32), a, b (v128)
  2,
  2,
  I32,
  2,
  V128,
  ...[BLOCK, VOID, LOCAL_GET, N, I32_EQZ, BR_IF, 0],
  ...[LOOP, VOID],
  ...[...v128Zero, LOCAL_SET, A, ...v128Zero, LOCAL_SET, B],
  ...[LOCAL_GET, Q, LOCAL_SET, QP, LOCAL_GET, BLOCKS, LOCAL_SET, J],
  ...[LOOP, VOID, ...accumulate(A, 0), ...accumulate(B, 16), ...advance(V, 32), ...advance(QP, 32)],
  ...[...countDown(J), END],
  ...[LOCAL_GET, OUT, LOCAL_GET, A, LOCAL_GET, B, ...f32x4Add, LOCAL_SET, A],
  ...[LOCAL_GET, A, ...f32x4Lane(0), LOCAL_GET, A, ...f32x4Lane(1), F32_ADD],
  ...[LOCAL_GET, A, ...f32x4Lane(2), F32_ADD, LOCAL_GET, A, ...f32x4Lane(3), F32_ADD],
  ...[F32_STORE, 2, 0, ...advance(OUT, 4)],
  ...[...countDown(N), END, END, END],
];
const MODULE_BYTES = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  // one type: (i32 i32 i32 i32 i32) -> ()
  ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
  // the memory, from the caller: env.memory, at least one page
  ...section(2, [1, ...text('env'), ...text('memory'), 0x02, 0x00, 1]),
  ...section(3, [1, 0]),
  ...section(7, [1, ...text('dots'), 0x00, 0]),
  ...section(10, [1, ...uleb(body.length), ...body]),
]);

// The few WebAssembly globals used (the project's TypeScript libraries are ES2023 without DOM,
// where they are declared).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
type DotsFunction = (q: number, v: number, n: number, blocks: number, out: number) => void;
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;
function simdModule(): object | null {
  if (compiled === undefined) {
    try {
      // Throws where SIMD is not supported (validation fails).
      compiled = wasm ? new wasm.Module(MODULE_BYTES) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

const PAGE = 65_536;
/** Results of one dots() call at most (longer runs are split). */
const OUT_FLOATS = 4_096;

/**
 * A table of float vectors of `dimensions` (a multiple of 8) in WebAssembly memory, and the SIMD
 * dot product of a question with runs of them. `data` is the table (slot s at [s·d, (s+1)·d)),
 * a view that grow() replaces.
 */
export class SimdVectors {
  data: Float32Array;
  private query: Float32Array;
  private out: Float32Array;
  private readonly base: number;
  private constructor(
    private readonly memory: WasmMemory,
    private readonly dots: DotsFunction,
    readonly dimensions: number,
    capacity: number,
  ) {
    this.base = SimdVectors.baseFor(dimensions);
    this.query = new Float32Array(memory.buffer, 0, dimensions);
    this.out = new Float32Array(memory.buffer, dimensions * 4, OUT_FLOATS);
    this.data = new Float32Array(memory.buffer, this.base, capacity);
  }

  private static baseFor(dimensions: number): number {
    return Math.ceil((dimensions * 4 + OUT_FLOATS * 4) / 64) * 64;
  }

  /**
   * A table for `capacity` floats, or undefined where WebAssembly SIMD is not available or the
   * dimensions are not a multiple of 8 (the scan then stays in JavaScript).
   */
  static create(dimensions: number, capacity: number): SimdVectors | undefined {
    const module = simdModule();
    if (!wasm || !module || dimensions <= 0 || dimensions % 8 !== 0) return undefined;
    const bytes = SimdVectors.baseFor(dimensions) + capacity * 4;
    const memory = new wasm.Memory({ initial: Math.ceil(bytes / PAGE) });
    const instance = new wasm.Instance(module, { env: { memory } });
    return new SimdVectors(memory, instance.exports.dots as DotsFunction, dimensions, capacity);
  }

  /**
   * Room for `capacity` floats, the vectors kept where they are; returns the new `data` (the old
   * view is detached). Throws RangeError past what WebAssembly memory can hold (4 GiB).
   */
  grow(capacity: number): Float32Array {
    const bytes = this.base + capacity * 4;
    if (bytes > this.memory.buffer.byteLength)
      this.memory.grow(Math.ceil((bytes - this.memory.buffer.byteLength) / PAGE));
    const buffer = this.memory.buffer;
    this.query = new Float32Array(buffer, 0, this.dimensions);
    this.out = new Float32Array(buffer, this.dimensions * 4, OUT_FLOATS);
    this.data = new Float32Array(buffer, this.base, capacity);
    return this.data;
  }

  /** Whether `data` is this table's current view (dotRun() reads the table, not the argument). */
  holds(data: Float32Array): boolean {
    return data === this.data;
  }

  /** The question dotRun() multiplies by (its first `dimensions` values). */
  setQuery(query: Float32Array): void {
    this.query.set(query.subarray(0, this.dimensions));
  }

  /**
   * The dot products of the question with the vectors of slots first .. first + count - 1
   * (count at most OUT_FLOATS, RUN_LIMIT), in a view valid until the next call.
   */
  dotRun(first: number, count: number): Float32Array {
    const n = Math.min(count, OUT_FLOATS);
    this.dots(0, this.base + first * this.dimensions * 4, n, this.dimensions / 8, this.dimensions * 4);
    return this.out;
  }
}

/** The most slots one dotRun() call scores. */
export const RUN_LIMIT = OUT_FLOATS;
