// `serve` prepares the semantic-search index in the background once it listens: new records
// become documents, the LSA model is trained (or loaded), documents get vectors and the in-memory
// vector index is built, so the first question does not wait for all of that. It never blocks
// readiness and never ends the process: a failure is logged, and the first question prepares the
// index itself as it always did.
import type { Logger } from 'pino';
import { REMOTE_EMBED_BUDGET, type SearchOptions, type SemanticSearch } from '../search/semantic.js';

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

/**
 * Prepares the engine as the first question would, then waits for its in-memory vector index.
 * Resolves true when ready, false (after logging the error) when preparing failed; never rejects.
 * A server that stops meanwhile calls engine.stop(): the warm-up then ends at its next step with
 * one info line, not an error (whatever the step met on the way out, a database closing included).
 */
export async function warmUpSearch(
  engine: SemanticSearch,
  log: Logger,
  clock: () => Date = () => new Date(),
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
