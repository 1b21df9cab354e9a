// The bulk history: every current trade with all its fields (the Trade resource: market fields,
// alphas and scores included), as one gzip file per format (CSV and NDJSON), built once after the
// data changes and kept in the database (storage/repositories/bulk-exports.ts) so each download is
// a copy of stored bytes, not a query. Built after every ingest run and enrichment job, and by
// GET /bulk/trades itself when the trades changed some other way (the data version differs).
import { createHash } from 'node:crypto';
import { createGzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import { csvCell } from '../domain/csv-cell.js';
import { todayUtc } from '../domain/dates.js';
import {
  type BulkBuild,
  bulkExportMeta,
  saveBulkExport,
  tradeDataVersion,
} from '../storage/repositories/bulk-exports.js';
import { findTrades } from '../storage/repositories/trades.js';
import type { Database } from '../storage/schema.js';
import { StoreDatabase } from '../storage/store-database.js';
import { TradeSchema, toTradeResource } from './trade.js';

export type BulkFormat = 'csv' | 'ndjson';

export const BULK_FORMATS: Readonly<
  Record<BulkFormat, { name: string; contentType: string; extension: string }>
> = {
  csv: { name: 'trades.csv.gz', contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  ndjson: { name: 'trades.ndjson.gz', contentType: 'application/x-ndjson', extension: 'ndjson' },
};

/** The columns of the CSV (and the keys of each NDJSON object): the Trade resource's fields in order. */
export const BULK_COLUMNS: readonly string[] = Object.keys(TradeSchema.properties);

/** Trades read per query while building. */
const BATCH = 2000;

/**
 * Builds both files when the trades changed since they were built (or `force`); returns at once
 * when they are current. A build already running in this process on the same store is joined, not
 * repeated: the store keeps it (StoreDatabase.bulkBuild), so concurrent requests wait for one build
 * of that database. Another Kysely instance (a transaction) builds on its own.
 */
export function rebuildBulkHistory(
  db: Kysely<Database>,
  now: Date,
  options: { force?: boolean } = {},
): Promise<BulkBuild> {
  if (!(db instanceof StoreDatabase)) return buildIfStale(db, now, options.force === true);
  const store = db;
  if (store.bulkBuild) return store.bulkBuild;
  const build = buildIfStale(store, now, options.force === true).finally(() => {
    store.bulkBuild = undefined;
  });
  store.bulkBuild = build;
  return build;
}

/** Whether both stored files were built from the data as it is now. */
export async function bulkHistoryCurrent(db: Kysely<Database>): Promise<boolean> {
  const version = await tradeDataVersion(db);
  for (const format of Object.values(BULK_FORMATS)) {
    const meta = await bulkExportMeta(db, format.name);
    if (meta?.data_version !== version) return false;
  }
  return true;
}

async function buildIfStale(db: Kysely<Database>, now: Date, force: boolean): Promise<BulkBuild> {
  const dataVersion = await tradeDataVersion(db);
  if (!force && (await bulkHistoryCurrent(db))) return { rebuilt: false, rows: -1, dataVersion };
  const csv = gzipCollector();
  const ndjson = gzipCollector();
  csv.write(`${BULK_COLUMNS.map(csvLine).join(',')}\r\n`);
  const today = todayUtc(now);
  let rows = 0;
  let afterId = 0;
  for (;;) {
    const batch = await findTrades(
      db,
      { afterId, includeFlagged: true },
      { column: 'id', direction: 'asc' },
      { limit: BATCH, offset: 0 },
    );
    if (batch.length === 0) break;
    const csvText: string[] = [];
    const jsonText: string[] = [];
    for (const record of batch) {
      const trade = toTradeResource(record, today) as unknown as Record<string, unknown>;
      csvText.push(`${BULK_COLUMNS.map((column) => csvLine(csvCell(trade[column]))).join(',')}\r\n`);
      jsonText.push(`${JSON.stringify(pick(trade))}\n`);
      afterId = record.id;
    }
    csv.write(csvText.join(''));
    ndjson.write(jsonText.join(''));
    rows += batch.length;
  }
  const generatedAt = now.toISOString();
  for (const [format, collector] of [
    ['csv', csv],
    ['ndjson', ndjson],
  ] as const) {
    const content = await collector.end();
    await saveBulkExport(db, {
      name: BULK_FORMATS[format].name,
      content,
      etag: `"${createHash('sha256').update(content).digest('hex').slice(0, 32)}"`,
      data_version: dataVersion,
      rows,
      bytes: content.length,
      generated_at: generatedAt,
    });
  }
  return { rebuilt: true, rows, dataVersion };
}

/** The resource's fields in order (the row object carries a few join columns beside them). */
function pick(trade: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of BULK_COLUMNS) out[column] = trade[column] ?? null;
  return out;
}

/** A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF; quotes doubled. */
function csvLine(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** A gzip stream whose output is gathered in memory (the file is stored whole). */
function gzipCollector() {
  const gzip = createGzip();
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    gzip.on('end', () => resolve(Buffer.concat(chunks)));
    gzip.on('error', reject);
  });
  return {
    write: (text: string) => gzip.write(text),
    end: async () => {
      gzip.end();
      return done;
    },
  };
}
