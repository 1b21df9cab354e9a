// Keeps search_documents current: refreshSearchDocuments() reads each search source from its
// watermark (rows added or changed since the last refresh), words them (source-documents.ts, from
// the words of wording.ts) and writes or removes their documents; the SQL is
// storage/repositories/search-sources.ts' and search-index.ts'.
import type { Kysely } from 'kysely';
import { linkedSymbols } from '../domain/symbol-changes.js';
import {
  removeSearchDocuments,
  type SearchDocument,
  upsertSearchDocuments,
} from '../storage/repositories/search-index.js';
import {
  changedCompanyTickers,
  MAX_ROW_ID,
  resetSearchWatermarks,
  SEARCH_SOURCE_NAMES,
  type SourceWindow,
  saveSearchWatermark,
  searchSourceRows,
  searchWatermark,
  type Watermark,
} from '../storage/repositories/search-sources.js';
import type { Database } from '../storage/schema.js';
import { ThreadRequests, threadModule } from '../threads.js';
import {
  billDocuments,
  type ChangedRow,
  type RowsToWord,
  rowsToWord,
  tickerDocuments,
  wordRows,
} from './source-documents.js';
import { nextTurn, SlicedBatch, Slices } from './turns.js';

/** Rows of a source read and worded at a time, at the most and at the least (SlicedBatch). */
const BATCH_MAX = 1_000;
const BATCH_MIN = 20;
/** Documents written at a time (a source's batch, or every ticker's document at once), a turn between. */
const WRITE_CHUNK = 50;
/** Companies worded at a time (their documents count their trades). */
const COMPANIES_AT_A_TIME = 100;
/**
 * The version of the wording (source-documents.ts, wording.ts): a database whose documents were
 * worded by another version has its watermarks reset, so that every record is worded again (a
 * document whose words did not change keeps its vector). Bump it whenever a renderer changes.
 */
export const SEARCH_WORDING_VERSION = 5;

export interface RefreshReport {
  indexed: number;
  removed: number;
}

export interface RefreshOptions {
  onProgress?: (source: string, done: number) => void;
  /**
   * The sources' rows are worded in a worker thread at a lower priority (the same documents),
   * this thread only reading and writing: for the warm-up's process, whose own thread holds the
   * write lock for its writes, so that the wording gives way to serving.
   */
  inThread?: boolean;
}

function advance(mark: Watermark, id: number, updated: string): Watermark {
  return {
    last_id: Math.max(mark.last_id, id),
    last_updated: updated > mark.last_updated ? updated : mark.last_updated,
  };
}

/**
 * Brings search_documents up to date with every source table, reading only what was added or
 * changed since the last refresh: rows past the highest id seen, then older rows whose
 * updated_at is past the newest seen. Ticker documents are rebuilt for the tickers those rows
 * touch. The search engine calls it before answering (throttled), the warm-up and
 * `dcledger search index` ahead of time.
 */
export async function refreshSearchDocuments(
  db: Kysely<Database>,
  now: Date,
  options: RefreshOptions = {},
): Promise<RefreshReport> {
  const thread = options.inThread
    ? new ThreadRequests<RowsToWord, ChangedRow[]>(
        threadModule(import.meta.url, 'wording-thread'),
        undefined,
        'the wording thread',
      )
    : undefined;
  try {
    return await refresh(db, now, options.onProgress, (batch) =>
      thread ? thread.ask(batch) : wordRows(batch),
    );
  } finally {
    await thread?.close();
  }
}

async function refresh(
  db: Kysely<Database>,
  now: Date,
  onProgress: RefreshOptions['onProgress'],
  word: (batch: RowsToWord) => ChangedRow[] | Promise<ChangedRow[]>,
): Promise<RefreshReport> {
  const report: RefreshReport = { indexed: 0, removed: 0 };
  const stamp = now.toISOString();
  const wording = await searchWatermark(db, 'wording');
  if (wording.last_id !== SEARCH_WORDING_VERSION) {
    await resetSearchWatermarks(db);
    await saveSearchWatermark(db, 'wording', { last_id: SEARCH_WORDING_VERSION, last_updated: stamp });
  }
  const today = stamp.slice(0, 10);
  const touchedTickers = new Set<string>();
  const apply = async (rows: readonly ChangedRow[]) => {
    const keep: SearchDocument[] = [];
    const drop: string[] = [];
    for (const row of rows) {
      if (row.document) keep.push(row.document);
      else drop.push(row.key);
      if (row.ticker) touchedTickers.add(row.ticker);
    }
    const slices = new Slices();
    for (let at = 0; at < keep.length; at += WRITE_CHUNK) {
      await upsertSearchDocuments(db, keep.slice(at, at + WRITE_CHUNK), stamp);
      await slices.tick();
    }
    report.removed += await removeSearchDocuments(db, drop);
    report.indexed += keep.length;
  };
  for (const name of SEARCH_SOURCE_NAMES) {
    const start = await searchWatermark(db, name);
    let mark = start;
    let done = 0;
    const phases: SourceWindow[] = [{ fromId: start.last_id, toId: MAX_ROW_ID, updatedAfter: undefined }];
    if (start.last_id > 0) phases.push({ fromId: 0, toId: start.last_id, updatedAfter: start.last_updated });
    const batch = new SlicedBatch(BATCH_MIN, BATCH_MAX);
    for (const phase of phases) {
      let window = phase;
      for (;;) {
        const started = performance.now();
        const size = batch.size;
        const rows = await searchSourceRows(db, name, window, size);
        if (rows.length === 0) break;
        const changed = await word(await rowsToWord(db, name, rows, today));
        for (const row of changed) mark = advance(mark, row.id, row.updated);
        await apply(changed);
        done += rows.length;
        onProgress?.(name, done);
        await saveSearchWatermark(db, name, mark);
        batch.took(rows.length, performance.now() - started);
        await nextTurn();
        if (rows.length < size) break;
        window = { ...window, fromId: Math.max(...changed.map((row) => row.id)) };
      }
    }
  }
  await apply(await billDocuments(db));
  await nextTurn();
  for (const ticker of await changedCompanyTickers(db)) touchedTickers.add(ticker);
  // A trade filed under a renamed company's former symbol counts in the company's current document
  // (FB in META's), so every symbol the table links to a touched one is worded again.
  const companies = new Set([...touchedTickers].flatMap((ticker) => linkedSymbols(ticker)));
  // A few hundred companies at a time: each read then takes their trades by index, where all
  // of them at once is one aggregate over every trade.
  const tickers: SearchDocument[] = [];
  const symbols = [...companies];
  for (let at = 0; at < symbols.length; at += COMPANIES_AT_A_TIME) {
    tickers.push(...(await tickerDocuments(db, new Set(symbols.slice(at, at + COMPANIES_AT_A_TIME)))));
    await nextTurn();
  }
  await apply(tickers.map((doc) => ({ id: 0, updated: '', key: doc.doc_key, document: doc })));
  // A former symbol whose trades all count under the company's current one (FB) has no document of
  // its own: the one an earlier wording made is removed.
  const worded = new Set(tickers.map((doc) => doc.ref_id));
  report.removed += await removeSearchDocuments(
    db,
    [...companies]
      .filter((symbol) => linkedSymbols(symbol).length > 1 && !worded.has(symbol))
      .map((symbol) => `ticker:${symbol}`),
  );
  onProgress?.('tickers', tickers.length);
  return report;
}
