// `dcledger review list|show|accept|correct|reject|add|settle|reread`: the queue of rows read from
// scans that the OCR stage was not sure of (docs/ocr.md). A row waits there, served by no trade
// list, until a person accepts it as read, corrects it, or rejects it; a row the reader missed is
// added by a person, and a filing whose rows could not be read is settled once its rows are in.
// Each decision is recorded with who made it (`--by`, default the user running the command), when,
// and each field's old and new value.
// The operators' page (/ui/review) does the same through the same service (services/review-queue.ts).
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { loadConfig } from '../config.js';
import {
  addReviewRow,
  decideReviewItem,
  filingsWaitingWithNoRow,
  findReviewItem,
  ReviewCrops,
  ReviewError,
  rereadSummary,
  rereadWaitingScans,
  settleReviewFiling,
  waitingReadWithoutIssuersCount,
  waitingReviewItems,
} from '../services/review-queue.js';
import { openMigratedStore } from '../storage/open.js';
import { CommandError, printJson, printLine } from './output.js';
import { progressBar } from './progress.js';

async function withStore<T>(
  work: (store: Awaited<ReturnType<typeof openMigratedStore>>) => Promise<T>,
): Promise<T> {
  const store = await openMigratedStore(loadConfig().database);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function itemId(text: string): number {
  const id = Number(text);
  if (!Number.isInteger(id) || id < 1)
    throw new CommandError(`ID must be a review item's number, got "${text}"`, 2);
  return id;
}

export async function reviewList(options: { json?: boolean; source?: string }): Promise<void> {
  await withStore(async (store) => {
    const items = await waitingReviewItems(store.db, { source: options.source });
    if (options.json) {
      printJson(items);
      return;
    }
    const withNoRow = await filingsWaitingWithNoRow(store.db, { source: options.source });
    for (const filing of withNoRow)
      printLine(
        `filing ${filing.id} (${filing.source} ${filing.source_doc_id}) waits with no row to decide: ${filing.parse_reason ?? ''}; add its rows (dcledger review add ${filing.id} --field ...), then dcledger review settle ${filing.id}`,
      );
    if (items.length === 0) {
      printLine('no rows wait for review');
      return;
    }
    for (const item of items) {
      const f = item.fields;
      printLine(
        `${item.id}\t${item.source_key}\tlowest ${item.lowest_confidence?.toFixed(2) ?? '-'}\t${f.transaction_date ?? '?'} ${f.owner ?? '?'} ${f.trade_type ?? '?'} ${f.amount_range ?? '?'} ${f.asset_description ?? '?'}`,
      );
    }
    printLine(`${items.length} row(s) wait for review: dcledger review show ID`);
    const withoutIssuers = await waitingReadWithoutIssuersCount(store.db);
    if (withoutIssuers > 0)
      printLine(
        `${withoutIssuers} waiting row(s) were read while the database held no companies: after \`dcledger companies import\` (\`--from-sec\` fetches the SEC's list) the next ingest run reads their scans again (\`dcledger review reread\` at once)`,
      );
  });
}

export async function reviewShow(id: string, options: { json?: boolean; out?: string }): Promise<void> {
  const number = itemId(id);
  await withStore(async (store) => {
    const shown = await findReviewItem(store.db, number);
    if (!shown) throw new CommandError(`no review item ${number}`, 1);
    const crop = await writeCrop(store.db, number, options.out);
    if (options.json) {
      printJson({ ...shown, crop });
      return;
    }
    printLine(
      `review item ${shown.id} (${shown.status}): ${shown.source_key}, page ${shown.page}, filing ${shown.filing_id}`,
    );
    for (const [field, value] of Object.entries(shown.fields)) {
      const confidence = shown.confidence[field];
      printLine(
        `  ${field.padEnd(18)} ${String(value ?? '(not read)').padEnd(44)} ${confidence === undefined ? '' : confidence.toFixed(2)}`,
      );
    }
    for (const reason of shown.reasons) printLine(`  why: ${reason}`);
    printLine(
      crop
        ? `crop: ${crop}`
        : KEYED_IN.has(shown.status)
          ? 'crop: none (given by a person, not read from a place on the page)'
          : 'crop: the document is not in the archive',
    );
  });
}

/** The row's picture beside the fields, written where asked (default ./review-ID.png); its path. */
async function writeCrop(
  db: Parameters<ReviewCrops['png']>[0],
  id: number,
  out: string | undefined,
): Promise<string | null> {
  const crops = new ReviewCrops(loadConfig().ingest.archiveDir, { thread: false });
  const png = await crops.png(db, id).finally(() => crops.close());
  if (!png) return null;
  const path = resolve(out ?? `review-${id}.png`);
  writeFileSync(path, png);
  return path;
}

/** Items a person made rather than the reader: a row added, a filing settled. */
const KEYED_IN = new Set(['added', 'settled']);

function defaultReviewer(): string {
  return `cli:${userInfo().username}`;
}

/** `--field name=value` pairs as a record. */
function fieldValues(pairs: readonly string[] | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CommandError(`--field takes name=value, got "${pair}"`, 2);
    values[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return values;
}

function filingId(text: string): number {
  const id = Number(text);
  if (!Number.isInteger(id) || id < 1)
    throw new CommandError(`FILING must be a filing's id, got "${text}"`, 2);
  return id;
}

/** A wrong request to the queue exits 2 with its reason. */
async function asCommand<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ReviewError) throw new CommandError(error.message, 2);
    throw error;
  }
}

async function decide(
  id: string,
  action: 'accept' | 'correct' | 'reject',
  options: { by?: string; field?: string[]; json?: boolean },
): Promise<void> {
  const number = itemId(id);
  const corrections = fieldValues(options.field);
  await withStore(async (store) => {
    const decided = await asCommand(() =>
      decideReviewItem(
        store.db,
        number,
        { action, by: options.by ?? defaultReviewer(), corrections },
        new Date(),
      ),
    );
    if (options.json) {
      printJson({
        id: number,
        status: decided.item.status,
        trade_id: decided.tradeId,
        changes: decided.changes,
      });
      return;
    }
    for (const change of decided.changes)
      printLine(`  ${change.field}: ${change.old ?? '(not read)'} -> ${change.new ?? '(none)'}`);
    printLine(
      decided.tradeId === null
        ? `review item ${number} ${decided.item.status}`
        : `review item ${number} ${decided.item.status}: trade ${decided.tradeId}`,
    );
  });
}

export const reviewAccept = (id: string, options: { by?: string; json?: boolean }) =>
  decide(id, 'accept', options);
export const reviewReject = (id: string, options: { by?: string; json?: boolean }) =>
  decide(id, 'reject', options);
export const reviewCorrect = (id: string, options: { by?: string; field?: string[]; json?: boolean }) =>
  decide(id, 'correct', options);

/**
 * A row of a filing's scan that its reader missed, keyed in by a person: a trade (parse_method
 * manual), recorded as an `add` decision.
 */
export async function reviewAdd(
  filing: string,
  options: { by?: string; field?: string[]; page?: string; json?: boolean },
): Promise<void> {
  const id = filingId(filing);
  const page = options.page === undefined ? undefined : Number(options.page);
  if (page !== undefined && (!Number.isInteger(page) || page < 1))
    throw new CommandError(`--page must be a page number, got "${options.page}"`, 2);
  const fields = fieldValues(options.field);
  await withStore(async (store) => {
    const added = await asCommand(() =>
      addReviewRow(
        store.db,
        id,
        { by: options.by ?? defaultReviewer(), fields, ...(page === undefined ? {} : { page }) },
        new Date(),
      ),
    );
    if (options.json) {
      printJson({ id: added.item.id, filing_id: id, status: added.item.status, trade_id: added.tradeId });
      return;
    }
    printLine(
      `review item ${added.item.id} added to filing ${id} (row ${added.item.row}): trade ${added.tradeId}`,
    );
  });
}

/** A filing that waits with no row to decide, said to hold no more rows: parsed. */
export async function reviewSettle(filing: string, options: { by?: string; json?: boolean }): Promise<void> {
  const id = filingId(filing);
  await withStore(async (store) => {
    const settled = await asCommand(() =>
      settleReviewFiling(store.db, id, options.by ?? defaultReviewer(), new Date()),
    );
    if (options.json) {
      printJson({ filing_id: settled.filingId, review_item_id: settled.itemId, status: 'parsed' });
      return;
    }
    printLine(`filing ${settled.filingId} settled: parsed (review item ${settled.itemId})`);
  });
}

/** Why a filing's scan was not read again, in words. */
const UNREAD = {
  not_archived: 'its document is not in the archive',
  not_a_scan: 'not a scan the reader knows',
  failed: 'reading it failed (the filing says why)',
} as const;

/**
 * Reads again the scans whose rows wait, with the companies the database holds now: a row now
 * read surely is accepted (recorded as decided by `--by`), one still doubtful waits with its new
 * reading. For scans read before `dcledger companies import`.
 */
export async function reviewReread(options: { by?: string; json?: boolean; source?: string }): Promise<void> {
  const config = loadConfig();
  await withStore(async (store) => {
    const bar = progressBar('reading scans again');
    const done = await rereadWaitingScans(store.db, {
      archiveDir: config.ingest.archiveDir,
      by: `${options.by ?? defaultReviewer()} (scan read again)`,
      ...(options.source ? { source: options.source } : {}),
      // A bar of filings on a terminal; otherwise a line per page and per filing.
      onFiling: (filing, index, total) => {
        bar.update(index, total);
        if (!process.stderr.isTTY)
          process.stderr.write(`filing ${filing.filing_id}: ${filing.outcome} (${index}/${total})\n`);
      },
      onPage: (filingId, page, pages) => {
        if (!process.stderr.isTTY) process.stderr.write(`filing ${filingId}: page ${page}/${pages} read\n`);
      },
    }).finally(() => bar.stop());
    if (options.json) {
      printJson(done);
      return;
    }
    if (done.length === 0) {
      printLine('no rows wait for review');
      return;
    }
    for (const filing of done)
      printLine(
        filing.outcome === 'read'
          ? `filing ${filing.filing_id} (${filing.source}): ${filing.accepted} accepted, ${filing.waiting} still waiting${filing.unmatched > 0 ? `, ${filing.unmatched} not found again (waiting as before)` : ''}${filing.decided_meanwhile > 0 ? `, ${filing.decided_meanwhile} decided meanwhile` : ''}`
          : `filing ${filing.filing_id} (${filing.source}): ${UNREAD[filing.outcome]}; its rows wait as before`,
      );
    printLine(`${done.length} filing(s) read again: ${rereadSummary(done).accepted} row(s) accepted`);
  });
}
