// `serve` prepares the semantic-search index in the background once it listens: new records
// become documents, the LSA model is trained (or loaded), documents get vectors and the in-memory
// vector index is built, so the first question does not wait for all of that. It never blocks
// readiness and never ends the process: a failure is logged, and the first question prepares the
// index itself as it always did. Given the database's settings, that work runs in a worker thread
// on a connection of its own (search-warm-up-thread.ts) and the API's engine then only reads what
// it stored: the vectors and the stored in-memory index, in slices between requests.
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { DatabaseConfig, EmbeddingsConfig } from '../config.js';
import { REMOTE_EMBED_BUDGET, type SearchOptions, type SemanticSearch } from '../search/semantic.js';
import { threadModule } from '../threads.js';
import type { WarmUpThreadData, WarmUpThreadMessage } from './search-warm-up-thread.js';

type Progress = NonNullable<SearchOptions['onProgress']>;

/** A source's running count is logged at most once per this many documents (and when it ends). */
const DOCUMENTS_STEP = 10_000;

/**
 * Logs the engine's progress (stages from SemanticSearch.prepare): documents indexed per source
 * (when the source is done, and every DOCUMENTS_STEP on the way), model training, vectors at
 * every tenth of the way, and the in-memory index build.
 */
export function searchProgressLog(log: Logger): Progress {
  let tenth = -1;
  let source: { name: string; done: number; logged: number } | undefined;
  const flush = () => {
    if (source && source.done > source.logged)
      log.info({ source: source.name, documents: source.done }, 'search index: documents');
    source = undefined;
  };
  return (stage, done, total) => {
    if (stage.startsWith('documents:')) {
      const name = stage.slice('documents:'.length);
      if (source?.name !== name) flush();
      source ??= { name, done: 0, logged: 0 };
      source.done = done;
      if (done >= source.logged + DOCUMENTS_STEP) {
        log.info({ source: name, documents: done }, 'search index: documents');
        source.logged = done;
      }
      // The ticker pass comes last, and reports on every check, also when nothing changed.
      if (name === 'tickers') flush();
      return;
    }
    flush();
    if (stage === 'training') {
      log.info({ sample: total }, 'search index: training the embedding model');
    } else if (stage === 'vectors') {
      const reached = total > 0 ? Math.floor((done / total) * 10) : 10;
      if (reached !== tenth || done === total)
        log.info({ vectors: done, of: total }, 'search index: embedding');
      tenth = done === total ? -1 : reached;
    } else if (stage === 'vector-index') {
      if (done === 0) log.info({ vectors: total }, 'search index: building the in-memory vector index');
      else log.info({ vectors: done, seconds: total }, 'search index: in-memory vector index built');
    } else if (stage === 'vector-index loaded') {
      log.info({ vectors: done, seconds: total }, 'search index: in-memory vector index loaded');
    } else if (stage.startsWith('vector-index stale')) {
      log.info({ vectors: done, trained_vectors: total }, `search index: ${stage}; training it again`);
    } else if (stage.startsWith('vector-index failed')) {
      log.error({}, `search index: ${stage}`);
    } else {
      log.info({ done, total }, `search index: ${stage}`);
    }
  };
}

/** Where the warm-up's thread finds what the API's engine reads: the same database and embeddings. */
export interface WarmUpThreadSettings {
  database: DatabaseConfig;
  embeddings: EmbeddingsConfig;
}

/** An in-memory SQLite database is this connection's alone: no thread could open it. */
function threadCanOpen(database: DatabaseConfig): boolean {
  return database.kind === 'postgres' || database.file !== ':memory:';
}

/**
 * Runs the whole preparation in a worker thread on its own connection, logging its progress.
 * Resolves once the thread has ended (its connection closed): 'prepared' or 'stopped'; rejects
 * with the thread's error.
 */
function prepareInThread(
  engine: SemanticSearch,
  settings: WarmUpThreadSettings,
  now: Date,
  progress: Progress,
): Promise<'prepared' | 'stopped'> {
  const workerData: WarmUpThreadData = { ...settings, now: now.getTime() };
  const worker = new Worker(new URL(threadModule(import.meta.url, 'search-warm-up-thread')), { workerData });
  const stop = () => worker.postMessage('stop');
  if (engine.stopped) stop();
  else engine.stopSignal.addEventListener('abort', stop, { once: true });
  let ending: WarmUpThreadMessage | undefined;
  let crash: unknown;
  worker.on('message', (message: WarmUpThreadMessage) => {
    if (message.type === 'progress') progress(message.stage, message.done, message.total);
    else ending = message;
  });
  worker.on('error', (error) => {
    crash = error;
  });
  return new Promise((resolve, reject) => {
    worker.once('exit', (code) => {
      engine.stopSignal.removeEventListener('abort', stop);
      if (ending?.type === 'prepared' || ending?.type === 'stopped') return resolve(ending.type);
      if (ending?.type === 'failed')
        return reject(Object.assign(new Error(ending.message), { name: ending.name, stack: ending.stack }));
      reject(crash ?? new Error(`the search warm-up thread ended (exit code ${code}) without a result`));
    });
  });
}

/**
 * Prepares the engine as the first question would, then waits for its in-memory vector index.
 * With `thread` (and a database a thread can open) the preparation runs in a worker thread first
 * and the engine then reads what it stored. Resolves true when ready, false (after logging the
 * error) when preparing failed; never rejects. A server that stops meanwhile calls engine.stop():
 * the warm-up then ends at its next step with one info line, not an error (whatever the step met
 * on the way out, a database closing included).
 */
export async function warmUpSearch(
  engine: SemanticSearch,
  log: Logger,
  clock: () => Date = () => new Date(),
  thread?: WarmUpThreadSettings,
): Promise<boolean> {
  const started = Date.now();
  log.info({}, 'search index: warming up in the background');
  const stopped = () => {
    log.info(
      { seconds: (Date.now() - started) / 1000 },
      'search index: warm-up stopped (the server is stopping)',
    );
    return false;
  };
  try {
    if (thread && threadCanOpen(thread.database)) {
      const inThread = prepareInThread(engine, thread, clock(), searchProgressLog(log));
      // A question meanwhile waits for the thread rather than preparing the same index beside it.
      engine.preparedElsewhere(inThread);
      if ((await inThread) === 'stopped' || engine.stopped) return stopped();
    }
    await engine.prepare(clock(), REMOTE_EMBED_BUDGET);
    await engine.vectorIndexReady();
  } catch (error) {
    if (engine.stopped) return stopped();
    log.error(
      { err: error, seconds: (Date.now() - started) / 1000 },
      'search index: warm-up failed; the first semantic search will prepare it',
    );
    return false;
  }
  if (engine.stopped) return stopped();
  const state = engine.state();
  log.info(
    {
      seconds: (Date.now() - started) / 1000,
      documents: state.documents,
      model: state.model,
      vectors_in_memory: state.vectorsInMemory,
      memory_index: state.memoryIndex,
    },
    'search index: ready',
  );
  return true;
}
