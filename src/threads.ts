// The module a worker thread or a forked child process loads. Compiled, it is the .js file beside
// the caller; run from the TypeScript sources (tests, tsx), the .ts file has to be loaded through
// tsx, which neither a worker thread (on Node 20) nor a forked child inherits from its parent, or,
// with DCLEDGER_THREADS_FROM_BUILD (config/threads.ts), its compiled twin in dist/.
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { readThreadsFromBuild } from './config/threads.js';

const fromSources = (callerUrl: string) => extname(fileURLToPath(callerUrl)) === '.ts';

/** src/ when this runs from the sources (dist/ when compiled: then nothing is mapped). */
const SOURCES = dirname(fileURLToPath(import.meta.url));

/**
 * The compiled twin in dist/ of the module `name` beside a caller run from the sources, when
 * DCLEDGER_THREADS_FROM_BUILD asks for it; undefined otherwise (a caller outside src/ too).
 */
function builtTwin(callerUrl: string, name: string): string | undefined {
  if (!readThreadsFromBuild()) return undefined;
  const inSources = relative(SOURCES, fileURLToPath(new URL(`./${name}.ts`, callerUrl)));
  if (inSources.startsWith(`..${sep}`)) return undefined;
  return join(SOURCES, '..', 'dist', inSources.replace(/\.ts$/, '.js'));
}

/** One of tsx's files, resolved from the caller. */
function tsxFile(callerUrl: string, file: string): string {
  return pathToFileURL(join(dirname(createRequire(callerUrl).resolve('tsx/package.json')), file)).href;
}

/**
 * The module a thread loads (tinypool's `filename`, or `new Worker(new URL(…))`).
 * `callerUrl`: the caller's import.meta.url; `name`: the thread module beside it, without
 * extension; `exported`: the functions tinypool calls by name (none for a thread that runs its
 * module's body and talks over its port).
 */
export function threadModule(callerUrl: string, name: string, exported: readonly string[] = []): string {
  if (!fromSources(callerUrl)) return new URL(`./${name}.js`, callerUrl).href;
  const built = builtTwin(callerUrl, name);
  if (built) return pathToFileURL(built).href;
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  const source = [
    `const tsx = await import(${JSON.stringify(tsxFile(callerUrl, 'dist/esm/api/index.mjs'))});`,
    `const thread = await tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(callerUrl)});`,
    ...exported.map((fn) => `export const ${fn} = thread.${fn};`),
  ].join('\n');
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

/**
 * The file a child process runs (`fork(file, [], { execArgv })`) and the flags that load it:
 * `name` is the module beside the caller, without extension.
 */
export function childModule(callerUrl: string, name: string): { file: string; execArgv: string[] } {
  if (!fromSources(callerUrl))
    return { file: fileURLToPath(new URL(`./${name}.js`, callerUrl)), execArgv: [] };
  const built = builtTwin(callerUrl, name);
  if (built) return { file: built, execArgv: [] };
  return {
    file: fileURLToPath(new URL(`./${name}.ts`, callerUrl)),
    execArgv: ['--import', tsxFile(callerUrl, 'dist/loader.mjs')],
  };
}

/** A request to a thread run by ThreadRequests, and its answer: `id` pairs the two. */
export interface ThreadMessage<Body> {
  id: number;
  body: Body;
}

/**
 * A worker thread that answers each message it is sent with one message back (its body module
 * posts `{ id, body }` for each `{ id, body }` it receives), until it is closed. A request still
 * waiting when the thread fails or ends is rejected, and so is every request after that.
 */
export class ThreadRequests<Request, Answer> {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve: (answer: Answer) => void; reject: (error: unknown) => void }
  >();
  private nextId = 0;
  private failure: unknown;

  /** `module`: threadModule()'s answer for the body; `what`: the thread in an error message. */
  constructor(module: string, workerData: unknown, what: string) {
    this.worker = new Worker(new URL(module), { workerData });
    this.worker.on('message', ({ id, body }: ThreadMessage<Answer>) => {
      this.waiting.get(id)?.resolve(body);
      this.waiting.delete(id);
    });
    const fail = (error: unknown) => {
      this.failure ??= error;
      for (const { reject } of this.waiting.values()) reject(this.failure);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`${what} ended (exit code ${code})`)));
  }

  ask(request: Request): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, body: request } satisfies ThreadMessage<Request>);
    });
  }

  /** Ends the thread (what it was still asked fails). */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
