// The serve warm-up on a real engine over a small database. The records are CONSTRUCTED (a few
// members and trades in the shape the ingest stores), not real filings: the warm-up's behaviour,
// not ranking quality, is what is tested here.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEmbeddings } from '../config.js';
import { RemoteEmbedder } from '../search/embedders.js';
import { REMOTE_EMBED_BUDGET, SEMANTIC_TYPES, SemanticSearch } from '../search/semantic.js';
import { insertTestMember } from '../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { freePort } from '../test-support/ports.js';
import { semanticSearchFromConfig } from './search.js';
import { searchProgressLog, sweepStaleHandOverDirs, warmUpSearch } from './search-warm-up.js';

const NOW = new Date('2026-06-01T12:00:00Z');

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

function recordingLog() {
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  return { log, lines };
}

describe('search progress in the log', () => {
  it('says per source how many documents were indexed, not one line per batch', () => {
    const { log, lines } = recordingLog();
    const progress = searchProgressLog(log);
    for (let done = 1_000; done <= 25_000; done += 1_000) progress('documents:trades', done, done);
    progress('documents:politicians', 40, 40);
    progress('documents:tickers', 0, 0);
    progress('vectors', 500, 1_000);
    progress('vectors', 1_000, 1_000);
    expect(lines.map((line) => [line.msg, line.source ?? null, line.documents ?? line.vectors])).toEqual([
      ['search index: documents', 'trades', 10_000],
      ['search index: documents', 'trades', 20_000],
      ['search index: documents', 'trades', 25_000],
      ['search index: documents', 'politicians', 40],
      ['search index: embedding', null, 500],
      ['search index: embedding', null, 1_000],
    ]);
  });
});

/** The built-in model, as serve's configuration has it without DCLEDGER_EMBEDDINGS_* settings. */
const LSA = readEmbeddings({});

/** Two members with the same four trades each. */
async function insertRecords(db: TestStore['db']): Promise<void> {
  const stamp = NOW.toISOString();
  const members = [
    ['ada-example', 'Ada Example', 'Senate'],
    ['bo-example', 'Bo Example', 'House'],
  ] as const;
  const trades = [
    ['DAL', 'Delta Air Lines Inc'],
    ['UAL', 'United Airlines Holdings Inc'],
    ['LMT', 'Lockheed Martin Corp'],
    ['PFE', 'Pfizer Inc'],
  ] as const;
  for (const [slug, name, chamber] of members) {
    const member = { id: await insertTestMember(db, { slug, name, chamber }, NOW) };
    for (const [ticker, description] of trades) {
      await db
        .insertInto('trades')
        .values({
          politician_id: member.id,
          source: 'house_clerk',
          source_key: `${slug}:${ticker}`,
          origin: 'test',
          ticker,
          asset_description: description,
          trade_type: 'Sale',
          trade_action: 'sell',
          transaction_date: '2020-02-14',
          is_ma_affected: 0,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
    }
  }
}

describe('serve warms the semantic-search index up in the background (constructed records)', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
    await insertRecords(store.db);
  });
  afterEach(async () => store.dispose());

  it('prepares everything, logs its progress, and the first question after it rebuilds nothing', async () => {
    const { log, lines } = recordingLog();
    const progressLog = searchProgressLog(log);
    const stages: string[] = [];
    const engine = new SemanticSearch(store.db, {
      onProgress: (stage, done, total) => {
        stages.push(stage);
        progressLog(stage, done, total);
      },
    });
    expect(engine.state().preparedAt).toBeNull();

    expect(await warmUpSearch(engine, log, () => NOW)).toBe(true);
    const messages = lines.map((line) => line.msg);
    expect(messages[0]).toBe('search index: warming up in the background');
    expect(messages).toContain('search index: documents');
    expect(messages).toContain('search index: training the embedding model');
    expect(messages).toContain('search index: embedding');
    const ready = lines.at(-1);
    // 2 members, 8 trades, 4 stocks.
    expect(ready).toMatchObject({ msg: 'search index: ready', documents: 14, vectors_in_memory: 14 });
    expect(ready?.seconds).toEqual(expect.any(Number));
    expect(String(ready?.model)).toMatch(/^lsa/);
    const state = engine.state();
    expect(state.preparedAt).not.toBeNull();
    expect(state.documents).toBe(14);

    expect(state.preparedAt).toEqual(NOW);

    const logged = lines.length;
    stages.length = 0;
    const answer = await engine.search(
      { q: 'airline stocks', types: SEMANTIC_TYPES, limit: 5 },
      new Date(NOW.getTime() + 1_000),
    );
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.retrieval.model).toBe(state.model);
    // No refresh, no training, no embedding: the engine reported no progress at all.
    expect(stages).toEqual([]);
    expect(lines.slice(logged)).toEqual([]);
    expect(engine.state()).toEqual(state);
  });

  it('lets the event loop turn while it prepares, long before it is done', async () => {
    // On SQLite every await of the preparation settles at once: only its own turns (nextTurn)
    // let a request that arrived meanwhile be answered before the whole index is built.
    const events: string[] = [];
    const engine = new SemanticSearch(store.db, { onProgress: (stage) => events.push(stage) });
    const prepared = engine.prepare(NOW).then(() => events.push('prepared'));
    setImmediate(() => events.push('turn'));
    await prepared;
    expect(events).toContain('training');
    expect(events.indexOf('turn')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('turn')).toBeLessThan(events.indexOf('training'));
  });

  it('without it, the first question does the whole preparation itself', async () => {
    const { log, lines } = recordingLog();
    const engine = new SemanticSearch(store.db, { onProgress: searchProgressLog(log) });
    await engine.search({ q: 'airline stocks', types: SEMANTIC_TYPES, limit: 5 });
    expect(lines.map((line) => line.msg)).toContain('search index: training the embedding model');
  });

  it('logs a failing preparation instead of throwing, and leaves the index unprepared', async () => {
    const { log, lines } = recordingLog();
    const embedder = new RemoteEmbedder({
      provider: 'openai',
      // A free port is one nothing listens on: the embeddings endpoint is unreachable.
      baseUrl: `http://127.0.0.1:${await freePort()}/v1`,
      apiKey: 'test-embeddings-key',
      model: 'text-embedding-3-small',
      dimensions: 16,
      timeoutMs: 2_000,
      batchSize: 8,
    });
    const engine = new SemanticSearch(store.db, { embedder, onProgress: searchProgressLog(log) });
    await expect(warmUpSearch(engine, log)).resolves.toBe(false);
    const failure = lines.find((line) => line.level === 50);
    expect(failure?.msg).toBe('search index: warm-up failed; the first semantic search will prepare it');
    expect(failure?.err).toMatchObject({ message: expect.any(String) });
    expect(JSON.stringify(lines)).not.toContain('test-embeddings-key');
    expect(lines.map((line) => line.msg)).not.toContain('search index: ready');
    expect(engine.state().preparedAt).toBeNull();
  });

  it('stops quietly when the server stops during it: no "warm-up failed" line, nothing after', async () => {
    const { log, lines } = recordingLog();
    const progressLog = searchProgressLog(log);
    let engine: SemanticSearch | undefined;
    // The server stops while the model trains (midway: documents done, nothing embedded yet).
    engine = new SemanticSearch(store.db, {
      onProgress: (stage, done, total) => {
        progressLog(stage, done, total);
        if (stage === 'training') engine?.stop();
      },
    });
    await expect(warmUpSearch(engine, log, () => NOW)).resolves.toBe(false);
    const messages = lines.map((line) => line.msg);
    expect(messages).toContain('search index: training the embedding model');
    expect(messages.at(-1)).toBe('search index: warm-up stopped (the server is stopping)');
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(messages).not.toContain('search index: embedding');
    expect(messages).not.toContain('search index: ready');
    expect(engine.state().preparedAt).toBeNull();
    // Nothing was embedded after the stop.
    const vectors = await store.db.selectFrom('search_vectors').select('document_id').execute();
    expect(vectors).toEqual([]);
  });
});

describe('the warm-up in a child process on its own connection (constructed records)', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
    await insertRecords(store.db);
  });
  afterEach(async () => store.dispose());

  it('prepares the index there; the API engine adopts its vectors and answers as one prepared in place', async () => {
    const { log, lines } = recordingLog();
    const stages: string[] = [];
    const engine = new SemanticSearch(store.db, { onProgress: (stage) => stages.push(stage) });
    const settings = { database: store.config, embeddings: LSA };
    const warming = warmUpSearch(engine, log, () => NOW, settings);
    // A question asked meanwhile waits for the child process instead of preparing the index beside it.
    const early = await engine.search({ q: 'airline stocks', types: SEMANTIC_TYPES, limit: 5 }, NOW);
    expect(early.results.length).toBeGreaterThan(0);
    expect(await warming).toBe(true);
    const messages = lines.map((line) => line.msg);
    // The child's progress is logged as the engine's own would be...
    expect(messages).toContain('search index: documents');
    expect(messages).toContain('search index: training the embedding model');
    expect(messages).toContain('search index: embedding');
    expect(lines.at(-1)).toMatchObject({ msg: 'search index: ready', documents: 14, vectors_in_memory: 14 });
    // ...and the API's engine wrote no document, trained no model, embedded nothing and read no
    // vector back: it adopted the child's table.
    expect(stages.filter((stage) => !stage.startsWith('documents:tickers'))).toEqual([
      'vector-index handed over',
    ]);
    expect(engine.state()).toMatchObject({ preparedAt: NOW, documents: 14, vectorsInMemory: 14 });

    // The same records warmed up on the API's own thread give the same answers.
    const other = await openTestStore();
    try {
      await insertRecords(other.db);
      const inPlace = new SemanticSearch(other.db);
      expect(await warmUpSearch(inPlace, recordingLog().log, () => NOW)).toBe(true);
      expect(engine.state().model).toBe(inPlace.state().model);
      const later = new Date(NOW.getTime() + 1_000);
      // A misspelled name is found through the entity index the child handed over.
      for (const q of ['airline stocks', 'who sold Lockheed', 'Pfizer', 'Ada Exampel trades']) {
        const question = { q, types: SEMANTIC_TYPES, limit: 5 };
        const answer = await engine.search(question, later);
        expect(answer.results.length).toBeGreaterThan(0);
        expect(answer).toEqual(await inPlace.search(question, later));
      }
    } finally {
      await other.dispose();
    }
  });

  it('stops with the server: the child ends at its next step and nothing more is stored', async () => {
    let engine: SemanticSearch | undefined;
    const lines: Line[] = [];
    const log = pino(
      { level: 'info' },
      {
        write: (text: string) => {
          const line = JSON.parse(text) as Line;
          lines.push(line);
          // The server stops while the child trains the model.
          if (line.msg === 'search index: training the embedding model') engine?.stop();
        },
      },
    );
    engine = new SemanticSearch(store.db);
    const settings = { database: store.config, embeddings: LSA };
    await expect(warmUpSearch(engine, log, () => NOW, settings)).resolves.toBe(false);
    const messages = lines.map((line) => line.msg);
    expect(messages.at(-1)).toBe('search index: warm-up stopped (the server is stopping)');
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(messages).not.toContain('search index: embedding');
    const vectors = await store.db.selectFrom('search_vectors').select('document_id').execute();
    expect(vectors).toEqual([]);
  });

  it('reports the child failing as the warm-up failing, without the provider key', async () => {
    const { log, lines } = recordingLog();
    const embeddings = {
      ...readEmbeddings({
        DCLEDGER_EMBEDDINGS_PROVIDER: 'openai',
        DCLEDGER_EMBEDDINGS_API_KEY: 'test-embeddings-key',
      }),
      // A free port is one nothing listens on: the embeddings endpoint is unreachable.
      baseUrl: `http://127.0.0.1:${await freePort()}/v1`,
      timeoutMs: 2_000,
    };
    const engine = new SemanticSearch(store.db);
    await expect(warmUpSearch(engine, log, () => NOW, { database: store.config, embeddings })).resolves.toBe(
      false,
    );
    const failure = lines.find((line) => line.level === 50);
    expect(failure?.msg).toBe('search index: warm-up failed; the first semantic search will prepare it');
    expect(failure?.err).toMatchObject({ message: expect.any(String) });
    expect(JSON.stringify(lines)).not.toContain('test-embeddings-key');
    expect(engine.state().preparedAt).toBeNull();
  });
  it('embeds with a remote provider at most the one budget per warm-up, all of it in the child', async () => {
    // More documents than the budget: each trade of one member is a document, and so is its stock.
    const member = await insertTestMember(
      store.db,
      { slug: 'cy-example', name: 'Cy Example', chamber: 'House' },
      NOW,
    );
    const stamp = NOW.toISOString();
    for (let at = 0; at < REMOTE_EMBED_BUDGET; at += 1)
      await store.db
        .insertInto('trades')
        .values({
          politician_id: member,
          source: 'house_clerk',
          source_key: `cy-example:${at}`,
          origin: 'test',
          ticker: `C${at}`,
          asset_description: `Constructed Company ${at} Inc`,
          trade_type: 'Purchase',
          trade_action: 'buy',
          transaction_date: '2020-03-02',
          is_ma_affected: 0,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
    let embedded = 0;
    // A local server in the OpenAI shape: every text gets the same unit vector.
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] };
        embedded += body.input.length;
        const data = body.input.map((_, index) => ({
          object: 'embedding',
          index,
          embedding: [1, 0, 0, 0, 0, 0, 0, 0],
        }));
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const embeddings = {
        ...readEmbeddings({
          DCLEDGER_EMBEDDINGS_PROVIDER: 'openai',
          DCLEDGER_EMBEDDINGS_API_KEY: 'test-embeddings-key',
        }),
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        dimensions: 8,
      };
      // The API's engine as serve makes it, from the same settings as the child's.
      const engine = semanticSearchFromConfig(store.db, embeddings);
      const { log } = recordingLog();
      expect(await warmUpSearch(engine, log, () => NOW, { database: store.config, embeddings })).toBe(true);
      expect(embedded).toBe(REMOTE_EMBED_BUDGET);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('hand-over directories left by a server killed during the hand-over', () => {
  it('removes the ones whose process is gone and that are over an hour old, and only those', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'dcledger-sweep-test-'));
    try {
      // A process that has ended: its id is nobody's (until the system hands it out again).
      const ended = spawn(process.execPath, ['-e', '']);
      const pid = ended.pid ?? 0;
      await new Promise((resolve) => ended.once('exit', resolve));
      const names = {
        gone: `dcledger-search-${pid}-abc123`,
        // Gone by its id, but written ten minutes ago: maybe a server in another process namespace.
        recent: `dcledger-search-${pid}-pqr678`,
        mine: `dcledger-search-${process.pid}-def456`,
        // The parent of this test run: alive.
        running: `dcledger-search-${process.ppid}-ghi789`,
        unnamed: 'dcledger-search-jkl012',
        other: `someone-else-${pid}-mno345`,
      };
      for (const name of Object.values(names)) {
        await mkdir(join(parent, name));
        await writeFile(join(parent, name, 'vectors.bin'), 'x');
      }
      const now = Date.now();
      const written = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
      for (const name of Object.values(names)) {
        const when = name === names.recent ? written(10) : written(61);
        await utimes(join(parent, name), when, when);
      }
      expect(await sweepStaleHandOverDirs(parent, now)).toEqual([names.gone]);
      expect((await readdir(parent)).sort()).toEqual(
        [names.recent, names.mine, names.running, names.unnamed, names.other].sort(),
      );
      // A parent that cannot be read: nothing removed, no error.
      expect(await sweepStaleHandOverDirs(join(parent, 'missing'))).toEqual([]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
