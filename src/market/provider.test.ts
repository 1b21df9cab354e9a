// The HTTP price provider against a local server on 127.0.0.1 that replays the recorded Stooq
// files of the shared data (as Stooq serves them: /q/d/l/?s=<symbol>.us&i=d).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { enrich } from '../analytics/enrich.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { fetchMissingPrices } from './fetch-prices.js';
import { PriceChain } from './price-chain.js';
import { ProviderError, StooqCsvProvider } from './provider.js';

const dataDir = inject('dataDir');
const RECORDED: Record<string, string> = {
  'aapl.us': 'market/prices/stooq_nasdaq_2012_2024/aapl.us.txt',
  'zm.us': 'market/prices/stooq_nasdaq_2012_2024/zm.us.txt',
  'cost.us': 'market/prices/stooq_nasdaq_2012_2024/cost.us.txt',
  'spy.us': 'market/prices/stooq_etfs_2005_2024/spy.us.txt',
};

interface Replay {
  server: Server;
  baseUrl: string;
  requests: string[];
  /** Symbols that answer 503 this many more times before answering. */
  failures: Map<string, number>;
}

async function startReplay(): Promise<Replay> {
  const requests: string[] = [];
  const failures = new Map<string, number>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const symbol = url.searchParams.get('s') ?? '';
    requests.push(symbol);
    if (url.pathname !== '/q/d/l/') return void response.writeHead(404).end();
    if (symbol === 'hang.us') return; // never answers: the client's timeout must end it
    // Constructed: what Stooq has answered clients it does not recognize since 2026.
    if (symbol === 'page.us')
      return void response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><p>get an API key</p>');
    const left = failures.get(symbol) ?? 0;
    if (left > 0) {
      failures.set(symbol, left - 1);
      return void response.writeHead(503).end('busy');
    }
    const file = RECORDED[symbol];
    if (!file) return void response.writeHead(200, { 'content-type': 'text/plain' }).end('No data');
    response.writeHead(200, { 'content-type': 'text/csv' });
    response.end(readFileSync(join(dataDir ?? '', file)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}`, requests, failures };
}

const provider = (baseUrl: string, timeoutMs = 2_000) =>
  new StooqCsvProvider({ baseUrl, timeoutMs, retries: 2, minIntervalMs: 0, backoffMs: 10 });

describe.skipIf(!dataDir)('HTTP price provider (replayed on 127.0.0.1)', () => {
  let replay: Replay;
  beforeAll(async () => {
    replay = await startReplay();
  });
  afterAll(async () => {
    replay.server.closeAllConnections();
    await new Promise((resolve) => replay.server.close(resolve));
  });

  it('asks for <symbol>.us and returns the recorded bars, parsed', async () => {
    const result = await provider(replay.baseUrl).fetchDaily('AAPL');
    expect(result.status).toBe('ok');
    if (result.status === 'ok') {
      // AAPL.US,D,20120103,000000,12.3617,12.4407,12.3359,12.4031,357824834.5726,0
      expect(result.series.bars[0]).toEqual({
        date: '2012-01-03',
        open: 12.3617,
        high: 12.4407,
        low: 12.3359,
        close: 12.4031,
        adjClose: 12.4031,
        volume: 357824834.5726,
      });
      expect(result).toMatchObject({ format: 'stooq', closeBasis: 'adjusted' });
    }
    expect(replay.requests.at(-1)).toBe('aapl.us');
    expect(provider(replay.baseUrl).urlFor('BRK.B')).toBe(`${replay.baseUrl}/q/d/l/?s=brk-b.us&i=d`);
    expect(provider(replay.baseUrl).urlFor('BRK.B', { from: '2024-06-07' })).toBe(
      `${replay.baseUrl}/q/d/l/?s=brk-b.us&i=d&d1=20240607`,
    );
  });

  it('takes an HTML page answered with 200 for a refusal, not for data', async () => {
    await expect(provider(replay.baseUrl).fetchDaily('PAGE')).rejects.toThrow(
      /answered an HTML page instead of CSV/,
    );
  });

  it('retries a 503 and succeeds', async () => {
    replay.failures.set('zm.us', 2);
    const before = replay.requests.length;
    const result = await provider(replay.baseUrl).fetchDaily('ZM');
    expect(result.status).toBe('ok');
    expect(replay.requests.length - before).toBe(3);
  });

  it('gives up after its retries, and on a server that never answers', async () => {
    replay.failures.set('zm.us', 5);
    await expect(provider(replay.baseUrl).fetchDaily('ZM')).rejects.toThrow(/HTTP 503 \(after 3 attempts\)/);
    replay.failures.delete('zm.us');
    await expect(provider(replay.baseUrl, 200).fetchDaily('HANG')).rejects.toBeInstanceOf(ProviderError);
    await expect(provider(replay.baseUrl, 200).fetchDaily('HANG')).rejects.toThrow(/timed out after 200 ms/);
  });

  it('treats "No data" as a symbol the provider does not know', async () => {
    expect((await provider(replay.baseUrl).fetchDaily('NOPE')).status).toBe('not_found');
  });

  it('fills in the prices enrichment lacks, remembers what it asked, and the trades get gains', async () => {
    const store: TestStore = await openTestStore(inject('fixture') ?? undefined);
    try {
      // A day after the fixture was built and enriched.
      const now = new Date('2026-06-02T12:00:00Z');
      // COST is not in the fixture's price files, and real trades hold it.
      const before = await store.db
        .selectFrom('trades')
        .select(['id', 'gain_30d'])
        .where('market_symbol', '=', 'COST')
        .where('transaction_date', '>', '2013-01-01')
        .where('transaction_date', '<', '2024-01-01')
        .execute();
      expect(before.length).toBeGreaterThan(0);
      for (const trade of before) expect(trade.gain_30d).toBeNull();

      const fetchedBy = provider(replay.baseUrl);
      const report = await fetchMissingPrices(
        store.db,
        new PriceChain([fetchedBy]),
        ['COST', 'NOPE', 'AAPL'],
        {
          now,
          refetchDays: 7,
        },
      );
      // AAPL has prices already: it is not asked for.
      expect(report).toMatchObject({ asked: 2, fetched: 1, notFound: 1, errors: [] });
      const again = await fetchMissingPrices(store.db, new PriceChain([fetchedBy]), ['COST', 'NOPE'], {
        now,
        refetchDays: 7,
      });
      expect(again.asked).toBe(0);

      const enriched = await enrich(store.db, { now });
      expect(enriched.trades.computed).toBeGreaterThanOrEqual(before.length);
      const after = await store.db
        .selectFrom('trades')
        .select(['id', 'gain_30d'])
        .where(
          'id',
          'in',
          before.map((trade) => trade.id),
        )
        .execute();
      expect(after.filter((trade) => trade.gain_30d !== null).length).toBeGreaterThan(0);
    } finally {
      await store.dispose();
    }
  });
});
