// The index on an empty database: records arrive, become documents incrementally, get vectors
// from a configured embeddings provider (a local server speaking the OpenAI and Voyage shapes)
// and are found. The provider's answers are CONSTRUCTED from the documented response shape
// ({data:[{index, embedding}]}), not recorded from a real provider: this machine has no access.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertTestMember } from '../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { refreshSearchDocuments } from './documents.js';
import { EmbeddingProviderError, RemoteEmbedder } from './embedders.js';
import { SemanticSearch } from './semantic.js';
import { tokenize } from './text.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const DIMENSIONS = 16;

/** Constructed embedding: a bag of hashed word stems, so texts sharing words point alike. */
function constructedEmbedding(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const token of tokenize(text)) {
    let hash = 7;
    for (const char of token) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % DIMENSIONS] = (vector[hash % DIMENSIONS] ?? 0) + 1;
  }
  return vector;
}

interface Seen {
  authorization: string | undefined;
  body: { model: string; input: string[]; input_type?: string; dimensions?: number };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('semantic search index on a database that fills up', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  let failNext = false;
  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const body = JSON.parse(await readBody(request)) as Seen['body'];
      seen.push({ authorization: request.headers.authorization, body });
      if (request.url !== '/v1/embeddings' || failNext) {
        failNext = false;
        response.writeHead(request.url === '/v1/embeddings' ? 500 : 404).end('{}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      // Answered out of order on purpose: the client must sort by index.
      const data = body.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: constructedEmbedding(text),
      }));
      response.end(JSON.stringify({ object: 'list', model: body.model, data: data.reverse() }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
    seen.length = 0;
  });
  afterEach(async () => store.dispose());

  async function addMember(slug: string, name: string, chamber: string): Promise<number> {
    return insertTestMember(store.db, { slug, name, chamber }, NOW);
  }

  async function addTrade(
    politicianId: number,
    key: string,
    ticker: string,
    description: string,
    updated = NOW,
  ) {
    const row = await store.db
      .insertInto('trades')
      .values({
        politician_id: politicianId,
        source: 'house_clerk',
        source_key: key,
        origin: 'test',
        ticker,
        asset_description: description,
        trade_type: 'Sale',
        trade_action: 'sell',
        transaction_date: '2020-02-14',
        is_ma_affected: 0,
        created_at: updated.toISOString(),
        updated_at: updated.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const provider = (kind: 'openai' | 'voyage') =>
    new RemoteEmbedder({
      provider: kind,
      baseUrl,
      apiKey: 'test-embeddings-key',
      model: kind === 'openai' ? 'text-embedding-3-small' : 'voyage-3.5-lite',
      dimensions: DIMENSIONS,
      timeoutMs: 5_000,
      batchSize: 2,
    });

  it('indexes records as they arrive, only what is new or changed, and drops superseded trades', async () => {
    const member = await addMember('ada-example', 'Ada Example', 'Senate');
    const first = await addTrade(member, 'k1', 'DAL', 'Delta Air Lines Inc');
    expect(await refreshSearchDocuments(store.db, NOW)).toEqual({ indexed: 3, removed: 0 }); // member, trade, ticker
    expect(await refreshSearchDocuments(store.db, NOW)).toEqual({ indexed: 0, removed: 0 });

    const second = await addTrade(member, 'k2', 'LMT', 'Lockheed Martin Corp');
    // One new trade and its stock; nothing else is read again.
    expect(await refreshSearchDocuments(store.db, NOW)).toEqual({ indexed: 2, removed: 0 });

    const later = new Date(NOW.getTime() + 60_000);
    await store.db
      .updateTable('trades')
      .set({ superseded_by: second, updated_at: later.toISOString() })
      .where('id', '=', first)
      .execute();
    const report = await refreshSearchDocuments(store.db, later);
    expect(report.removed).toBe(1);
    const keys = await store.db.selectFrom('search_documents').select('doc_key').orderBy('doc_key').execute();
    expect(keys.map((row) => row.doc_key)).toEqual([
      'politician:ada-example',
      'ticker:DAL',
      'ticker:LMT',
      'trade:house_clerk:k2',
    ]);
  });

  it('embeds with an OpenAI-compatible provider and fuses both rankings', async () => {
    const member = await addMember('ada-example', 'Ada Example', 'Senate');
    await addTrade(member, 'k1', 'DAL', 'Delta Air Lines Inc');
    await addTrade(member, 'k2', 'LMT', 'Lockheed Martin Corp');
    const engine = new SemanticSearch(store.db, { embedder: provider('openai') });
    const answer = await engine.search(
      { q: 'lockheed martin', types: ['trades', 'tickers'], limit: 5, mode: 'hybrid' },
      NOW,
    );
    expect(answer.retrieval).toMatchObject({ provider: 'openai', model: 'openai:text-embedding-3-small' });
    expect(answer.results[0]?.ticker).toBe('LMT');
    // The LMT trade and the LMT stock both say "Lockheed Martin": either may lead one retriever
    // (FTS5 and ts_rank_cd order them differently); the fused top has both parts near the top.
    expect(answer.results[0]?.score_parts.lexical?.rank).toBeLessThanOrEqual(2);
    expect(answer.results[0]?.score_parts.vector?.rank).toBeLessThanOrEqual(2);
    // The LMT trade answers inside the LMT company: one result per company.
    expect(answer.results[0]?.ticker).toBe('LMT');
    expect(answer.results.filter((result) => result.ticker === 'LMT')).toHaveLength(1);
    expect(seen.every((request) => request.authorization === 'Bearer test-embeddings-key')).toBe(true);
    expect(seen.every((request) => request.body.model === 'text-embedding-3-small')).toBe(true);
    expect(seen.every((request) => request.body.input.length <= 2)).toBe(true);
    const stored = await store.db.selectFrom('search_vectors').select(['model']).distinct().execute();
    expect(stored).toEqual([{ model: 'openai:text-embedding-3-small' }]);

    // A new record is embedded at the next question, and only it.
    seen.length = 0;
    await addTrade(member, 'k3', 'UAL', 'United Airlines Holdings', new Date(NOW.getTime() + 1_000));
    await engine.prepare(new Date(NOW.getTime() + 60_000));
    const embedded = seen.flatMap((request) => request.body.input);
    expect(embedded).toHaveLength(2); // the trade and its stock
    expect(embedded.join(' ')).toMatch(/United Airlines/);
  });

  it('tells Voyage whether it embeds a document or a question, and reports provider failures', async () => {
    const member = await addMember('ada-example', 'Ada Example', 'House');
    await addTrade(member, 'k1', 'DAL', 'Delta Air Lines Inc');
    const engine = new SemanticSearch(store.db, { embedder: provider('voyage') });
    const answer = await engine.search(
      { q: 'delta air lines', types: ['trades'], limit: 3, mode: 'vector' },
      NOW,
    );
    expect(answer.results[0]?.key).toBe('trade:house_clerk:k1');
    expect(answer.results[0]?.score_parts.lexical).toBeNull();
    expect(seen.map((request) => request.body.input_type)).toEqual(
      expect.arrayContaining(['document', 'query']),
    );
    failNext = true;
    await expect(provider('voyage').embed(['x'], 'query')).rejects.toThrow(EmbeddingProviderError);
  });
});
