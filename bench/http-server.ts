// One benchmark server, alone in its process: `dcledger <db>` (the real app) or `floor <db> <queries>`.
import { readFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import { MemoryRateLimitStore, type RateLimitStore } from '../src/accounts/rate-limit.js';
import { buildApp } from '../src/app.js';
import { daysBetween } from '../src/domain/dates.js';
import { chamberOfSource } from '../src/domain/sources.js';
import { TradeList } from '../src/http/routes/trades/schema.js';
import { openStore } from '../src/storage/database.js';
import type { TradeRecord } from '../src/storage/repositories/trades.js';
import { FIXTURE_NOW } from '../src/test-support/real-data.js';

/**
 * The in-process rate-limit store, with the account's requests spread over many counters: every
 * request is still counted (same work), but the load generator is never throttled to 600/min.
 */
class SpreadRateLimitStore implements RateLimitStore {
  private readonly inner = new MemoryRateLimitStore();
  private next = 0;

  hit(key: string, now: number, windowMs: number) {
    this.next = (this.next + 1) % 100_000;
    return this.inner.hit(`${key}:${this.next}`, now, windowMs);
  }
}

async function dcledger(file: string) {
  const store = openStore({ kind: 'sqlite', file });
  const app = await buildApp({
    db: store.db,
    dialect: store.dialect,
    clock: () => FIXTURE_NOW,
    rateLimits: new SpreadRateLimitStore(),
  });
  return {
    app,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

async function floor(file: string, queriesFile: string) {
  const sqlite = new BetterSqlite3(file, { readonly: true });
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as { text: string; parameters: unknown[] }[];
  const statements = queries.map((query) => ({
    statement: sqlite.prepare(query.text),
    parameters: query.parameters,
  }));
  const today = FIXTURE_NOW.toISOString().slice(0, 10);
  const app = Fastify({ logger: false });
  app.get('/floor/:scenario', { schema: { response: { 200: TradeList } } }, async (request) => {
    const entry = statements[Number((request.params as { scenario: string }).scenario)];
    if (!entry) throw new Error('unknown scenario');
    const rows = entry.statement.all(...entry.parameters) as TradeRecord[];
    return rows.map((row) => ({
      ...row,
      chamber: chamberOfSource(row.source) ?? 'House',
      days_held: daysBetween(row.transaction_date, today),
    }));
  });
  return {
    app,
    close: async () => {
      await app.close();
      sqlite.close();
    },
  };
}

const [mode, file, queries] = process.argv.slice(2);
if (!file) throw new Error('usage: http-server.ts dcledger|floor <db> [queries.json]');
const server = mode === 'floor' ? await floor(file, queries ?? '') : await dcledger(file);
await server.app.listen({ port: 0, host: '127.0.0.1' });
const address = server.app.server.address() as { port: number };
process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
