// The in-memory vector table (vector-memory.ts) as one file, so that a process that built it can
// hand it to another in one piece: the serve warm-up's child process writes it once, and the
// serving process reads the vectors straight into its own table (WebAssembly memory) with a few
// large reads off its event loop, instead of reading every vector back from the database row by
// row (each row a blob to decode on the API's thread, and a buffer left in its allocator).
//
// Layout: a 4-byte little-endian length, a JSON header of that length, then the sections in
// order, each starting at a multiple of 8 bytes: ids (float64), seqs (float64), each slot's list
// in the inverted-file index (int32, -1: none), each slot's kind (uint8, an index into the
// header's `kinds`), the index's centroids (float32) and the vectors (float32). Both sides are the
// same build: the header's `format` only guards against reading a file of another layout.
import { open } from 'node:fs/promises';

const FORMAT = 2;

/** The table as a process holds it: slot s's vector at data[s·dimensions, (s+1)·dimensions). */
export interface VectorTableContents {
  model: string;
  dimensions: number;
  /** The search_vectors.seq the table was read up to. */
  seq: number;
  /** Vectors the inverted-file index was trained on (0: no index). */
  trainedVectors: number;
  ids: readonly number[];
  kinds: readonly string[];
  seqs: readonly number[];
  /** Each slot's list in the index (-1: none); empty without an index. */
  lists: ArrayLike<number>;
  /** The index's centroids (lists × dimensions), or empty without an index. */
  centroids: Float32Array;
  /** At least ids.length × dimensions floats. */
  data: Float32Array;
  /** The rest of the writer's engine that the reader takes over (JSON-safe), or undefined. */
  engineState?: unknown;
  /** The embedding model's serialized state (the local model's), or empty. */
  modelState?: Uint8Array;
}

interface Header {
  format: number;
  model: string;
  dimensions: number;
  seq: number;
  trainedVectors: number;
  count: number;
  /** Floats of the centroids section. */
  centroidFloats: number;
  /** Whether the lists section holds each slot's list. */
  indexed: boolean;
  kinds: string[];
  /** Bytes of the engine's state (JSON; 0: none) and of the model's state. */
  engineStateBytes: number;
  modelStateBytes: number;
}

const aligned = (bytes: number) => Math.ceil(bytes / 8) * 8;

/** Where each section starts and how long it is (bytes), from the header's end on. */
function layout(header: Header, headerEnd: number) {
  const sections = {
    ids: header.count * 8,
    seqs: header.count * 8,
    lists: header.count * 4,
    kinds: header.count,
    centroids: header.centroidFloats * 4,
    vectors: header.count * header.dimensions * 4,
    engineState: header.engineStateBytes,
    modelState: header.modelStateBytes,
  };
  let at = aligned(headerEnd);
  const place = (bytes: number) => {
    const start = at;
    at = aligned(at + bytes);
    return { start, bytes };
  };
  return {
    ids: place(sections.ids),
    seqs: place(sections.seqs),
    lists: place(sections.lists),
    kinds: place(sections.kinds),
    centroids: place(sections.centroids),
    vectors: place(sections.vectors),
    engineState: place(sections.engineState),
    modelState: place(sections.modelState),
  };
}

const bytesOf = (view: ArrayBufferView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

/** Writes the table to `file` (created or replaced). */
export async function writeVectorTable(file: string, table: VectorTableContents): Promise<void> {
  const count = table.ids.length;
  const kinds = [...new Set(table.kinds)];
  if (kinds.length > 255) throw new RangeError(`${kinds.length} record kinds do not fit one byte each`);
  const codes = new Map(kinds.map((kind, code) => [kind, code] as const));
  const indexed = table.lists.length >= count && table.centroids.length > 0;
  const engineState =
    table.engineState === undefined ? new Uint8Array(0) : Buffer.from(JSON.stringify(table.engineState));
  const modelState = table.modelState ?? new Uint8Array(0);
  const header: Header = {
    format: FORMAT,
    model: table.model,
    dimensions: table.dimensions,
    seq: table.seq,
    trainedVectors: table.trainedVectors,
    count,
    centroidFloats: indexed ? table.centroids.length : 0,
    indexed,
    kinds,
    engineStateBytes: engineState.length,
    modelStateBytes: modelState.length,
  };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const at = layout(header, 4 + headerBytes.length);
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32LE(headerBytes.length);
  const lists = new Int32Array(count).fill(-1);
  if (indexed) for (let slot = 0; slot < count; slot++) lists[slot] = table.lists[slot] ?? -1;
  const sections: [number, Uint8Array][] = [
    [0, prefix],
    [4, headerBytes],
    [at.ids.start, bytesOf(Float64Array.from(table.ids))],
    [at.seqs.start, bytesOf(Float64Array.from(table.seqs))],
    [at.lists.start, bytesOf(lists)],
    [at.kinds.start, Uint8Array.from(table.kinds, (kind) => codes.get(kind) ?? 0)],
    [at.centroids.start, bytesOf(indexed ? table.centroids : new Float32Array(0))],
    [at.vectors.start, bytesOf(table.data.subarray(0, count * table.dimensions))],
    [at.engineState.start, engineState],
    [at.modelState.start, modelState],
  ];
  const handle = await open(file, 'w');
  try {
    for (const [position, bytes] of sections) await writeAll(handle, bytes, position);
  } finally {
    await handle.close();
  }
}

type FileHandle = Awaited<ReturnType<typeof open>>;

async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/** Bytes read at a time into the vectors' table: each read runs off the event loop. */
const READ_CHUNK = 4 << 20;

async function readAll(handle: FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const length = Math.min(READ_CHUNK, into.length - done);
    const { bytesRead } = await handle.read(into, done, length, position + done);
    if (bytesRead === 0) throw new Error('the vector table file ends early');
    done += bytesRead;
  }
}

/**
 * A table as readVectorTable() gives it: the per-slot sections as the file holds them (typed
 * arrays, each slot's kind as an index into `kindNames`), for the reader to turn into its own
 * arrays a slice at a time.
 */
export interface ReadVectorTable
  extends Omit<VectorTableContents, 'ids' | 'kinds' | 'seqs' | 'lists' | 'modelState'> {
  ids: Float64Array;
  seqs: Float64Array;
  kindCodes: Uint8Array;
  kindNames: readonly string[];
  lists: Int32Array;
  modelState: Uint8Array;
}

/**
 * Reads a table writeVectorTable() wrote. The vectors go straight into the array `allocate`
 * returns for that many floats of vectors of that many dimensions (the reader's own table: WebAssembly memory or a plain array),
 * without a copy in between.
 */
export async function readVectorTable(
  file: string,
  allocate: (floats: number, dimensions: number) => Float32Array,
): Promise<ReadVectorTable> {
  const handle = await open(file, 'r');
  try {
    const prefix = new Uint8Array(4);
    await readAll(handle, prefix, 0);
    const headerBytes = new Uint8Array(new DataView(prefix.buffer).getUint32(0, true));
    await readAll(handle, headerBytes, 4);
    const header = JSON.parse(Buffer.from(headerBytes).toString('utf8')) as Header;
    if (header.format !== FORMAT)
      throw new Error(`vector table file of format ${header.format}, not ${FORMAT}`);
    const at = layout(header, 4 + headerBytes.length);
    const section = async (where: { start: number; bytes: number }) => {
      const bytes = new Uint8Array(where.bytes);
      await readAll(handle, bytes, where.start);
      return bytes.buffer;
    };
    const ids = new Float64Array(await section(at.ids));
    const seqs = new Float64Array(await section(at.seqs));
    const lists = new Int32Array(await section(at.lists));
    const kindCodes = new Uint8Array(await section(at.kinds));
    const centroids = new Float32Array(await section(at.centroids));
    const data = allocate(header.count * header.dimensions, header.dimensions);
    await readAll(handle, bytesOf(data.subarray(0, header.count * header.dimensions)), at.vectors.start);
    const engineState = new Uint8Array(await section(at.engineState));
    const modelState = new Uint8Array(await section(at.modelState));
    return {
      model: header.model,
      dimensions: header.dimensions,
      seq: header.seq,
      trainedVectors: header.trainedVectors,
      ids,
      seqs,
      kindCodes,
      kindNames: header.kinds,
      lists: header.indexed ? lists : new Int32Array(0),
      centroids,
      data,
      engineState:
        engineState.length > 0
          ? (JSON.parse(Buffer.from(engineState).toString('utf8')) as unknown)
          : undefined,
      modelState,
    };
  } finally {
    await handle.close();
  }
}
