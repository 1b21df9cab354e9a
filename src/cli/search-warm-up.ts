// `serve` prepares the semantic-search index in the background once it listens: new records
// become documents, the LSA model is trained (or loaded), documents get vectors and the in-memory
// vector index is built, so the first question does not wait for all of that. It never blocks
// readiness and never ends the process: a failure is logged, and the first question prepares the
// index itself as it always did. Given the database's settings, that work runs in a child process
// on a connection of its own (search-warm-up-process.ts), which hands the vectors, their
// in-memory index, the entity index and the model over in one file: the API's engine reads the
// vectors into its table off the event loop, takes the rest as built, and only reads from the
// database what was stored after the file was written.
import { fork } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { DatabaseConfig, EmbeddingsConfig } from '../config.js';
import { REMOTE_EMBED_BUDGET, type SearchOptions, type SemanticSearch } from '../search/semantic.js';
import { childModule } from '../threads.js';
import type { WarmUpCommand, WarmUpReport } from './search-warm-up-process.js';

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
    } else if (stage === 'entity index') {
      log.info({ entities: done, seconds: total }, 'search index: entity index loaded');
    } else if (stage === 'vector-index handed over') {
      log.info({ vectors: done, seconds: total }, 'search index: in-memory vector index handed over');
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

/** Where the warm-up's process finds what the API's engine reads: the same database and embeddings. */
export interface WarmUpProcessSettings {
  database: DatabaseConfig;
  embeddings: EmbeddingsConfig;
}

/** An in-memory SQLite database is this connection's alone: no other process could open it. */
function othersCanOpen(database: DatabaseConfig): boolean {
  return database.kind === 'postgres' || database.file !== ':memory:';
}

/**
 * Runs the whole preparation in a child process on its own connection, logging its progress.
 * Resolves once the process has ended (its connection closed): 'prepared' (with whether it wrote
 * its vectors to `tableFile`) or 'stopped'; rejects with its error.
 */
function prepareInChild(
  engine: SemanticSearch,
  settings: WarmUpProcessSettings,
  now: Date,
  progress: Progress,
  tableFile: string,
): Promise<Extract<WarmUpReport, { type: 'prepared' | 'stopped' }>> {
  const module = childModule(import.meta.url, 'search-warm-up-process');
  // Structured clone on the channel; the child's own output goes where this process's does.
  const child = fork(module.file, [], {
    execArgv: module.execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const start: WarmUpCommand = { type: 'start', settings: { ...settings, now: now.getTime(), tableFile } };
  child.send(start);
  const stop = () => {
    if (child.connected) child.send({ type: 'stop' } satisfies WarmUpCommand);
  };
  if (engine.stopped) stop();
  else engine.stopSignal.addEventListener('abort', stop, { once: true });
  let ending: WarmUpReport | undefined;
  let crash: unknown;
  child.on('message', (report: WarmUpReport) => {
    if (report.type === 'progress') progress(report.stage, report.done, report.total);
    else ending = report;
  });
  child.on('error', (error) => {
    crash = error;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      engine.stopSignal.removeEventListener('abort', stop);
      if (ending?.type === 'prepared' || ending?.type === 'stopped') return resolve(ending);
      if (ending?.type === 'failed')
        return reject(Object.assign(new Error(ending.message), { name: ending.name, stack: ending.stack }));
      reject(
        crash ??
          new Error(`the search warm-up process ended (${signal ?? `exit code ${code}`}) without a result`),
      );
    });
  });
}

/** The hand-over directories' names: the process that made one is named in it. */
const HAND_OVER_DIR = /^dcledger-search-(\d+)-/;

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A hand-over lasts seconds; a directory younger than this may belong to a live server whose
 * process id means nothing here (another container or process namespace sharing the same
 * temporary directory), so it is left alone whatever its id says.
 */
const HAND_OVER_STALE_MS = 60 * 60 * 1000;

/**
 * Removes the hand-over directories in `parent` whose process is gone and that are over an hour
 * old: one killed during the hand-over leaves its directory (the table file, tens of MB) behind.
 * A directory of a process still running, or of a new one that reuses a dead one's id, or one
 * written in the last hour, is left alone; so is anything else. Never throws: returns the names
 * removed.
 */
export async function sweepStaleHandOverDirs(
  parent: string = tmpdir(),
  now: number = Date.now(),
): Promise<string[]> {
  const removed: string[] = [];
  // A directory that cannot be read or removed here is left for the system's own cleaning.
  const names = await readdir(parent).catch(() => []);
  for (const name of names) {
    const pid = Number(HAND_OVER_DIR.exec(name)?.[1] ?? 0);
    if (pid <= 0 || pid === process.pid || processExists(pid)) continue;
    const written = await stat(join(parent, name)).then(
      (info) => info.mtimeMs,
      () => now,
    );
    if (now - written < HAND_OVER_STALE_MS) continue;
    const gone = await rm(join(parent, name), { recursive: true, force: true }).then(
      () => true,
      () => false,
    );
    if (gone) removed.push(name);
  }
  return removed;
}

/**
 * The child's preparation, then its vectors and index adopted by `engine` from the file it wrote
 * (in a directory of its own, removed afterwards whatever happened, and at the next start if this
 * process is killed first).
 */
async function prepareAndHandOver(
  engine: SemanticSearch,
  settings: WarmUpProcessSettings,
  now: Date,
  progress: Progress,
): Promise<'prepared' | 'stopped'> {
  await sweepStaleHandOverDirs();
  const dir = await mkdtemp(join(tmpdir(), `dcledger-search-${process.pid}-`));
  try {
    const tableFile = join(dir, 'vectors.bin');
    const end = await prepareInChild(engine, settings, now, progress, tableFile);
    if (end.type === 'stopped' || engine.stopped) return 'stopped';
    if (end.table) await engine.adoptVectorTable(tableFile);
    return 'prepared';
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Prepares the engine as the first question would, then waits for its in-memory vector index.
 * With `elsewhere` (and a database another process can open) the preparation runs in a child
 * process first and the engine then reads what it stored. Resolves true when ready, false (after logging the
 * error) when preparing failed; never rejects. A server that stops meanwhile calls engine.stop():
 * the warm-up then ends at its next step with one info line, not an error (whatever the step met
 * on the way out, a database closing included).
 */
export async function warmUpSearch(
  engine: SemanticSearch,
  log: Logger,
  clock: () => Date = () => new Date(),
  elsewhere?: WarmUpProcessSettings,
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
    // A remote provider embeds at most REMOTE_EMBED_BUDGET documents per warm-up: the child's, when
    // there is one (the engine here then embeds none).
    let budget = REMOTE_EMBED_BUDGET;
    if (elsewhere && othersCanOpen(elsewhere.database)) {
      const handedOver = prepareAndHandOver(engine, elsewhere, clock(), searchProgressLog(log));
      // A question meanwhile waits for it rather than preparing the same index beside it.
      engine.preparedElsewhere(handedOver);
      if ((await handedOver) === 'stopped' || engine.stopped) return stopped();
      budget = 0;
    }
    await engine.prepare(clock(), budget);
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
