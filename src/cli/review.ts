// `dcledger review list|show|accept|correct|reject`: the queue of rows read from scans that the
// OCR stage was not sure of (docs/ocr.md). A row waits there, served by no trade list, until a
// person accepts it as read, corrects it, or rejects it; each decision is recorded with who made
// it (`--by`, default the user running the command), when, and each field's old and new value.
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { DocumentArchive } from '../ingest/fetch/archive.js';
import { rowCropPng } from '../ingest/ocr/row-crop.js';
import { decideReviewItem, ReviewError } from '../ingest/pipeline/review.js';
import type { ReviewFields, ReviewRegion } from '../ingest/pipeline/review-items.js';
import { openMigratedStore } from '../storage/open.js';
import { findFiling } from '../storage/repositories/filings.js';
import { pendingReviewItems, type ReviewItemRow, reviewItem } from '../storage/repositories/review.js';
import { CommandError, printJson, printLine } from './output.js';

/** An item as the commands print it. */
function presented(item: ReviewItemRow) {
  const confidence = JSON.parse(item.confidence) as Record<string, number>;
  const values = Object.values(confidence);
  return {
    id: item.id,
    status: item.status,
    source: item.source,
    filing_id: item.filing_id,
    source_key: item.source_key,
    page: item.page,
    row: item.row,
    fields: JSON.parse(item.fields) as ReviewFields,
    confidence,
    lowest_confidence: values.length > 0 ? Math.min(...values) : null,
    reasons: JSON.parse(item.reasons) as string[],
    trade_id: item.trade_id,
    decided_by: item.decided_by,
    decided_at: item.decided_at,
  };
}

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
    const items = (await pendingReviewItems(store.db, { source: options.source })).map(presented);
    if (options.json) {
      printJson(items);
      return;
    }
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
  });
}

export async function reviewShow(id: string, options: { json?: boolean; out?: string }): Promise<void> {
  const number = itemId(id);
  await withStore(async (store) => {
    const item = await reviewItem(store.db, number);
    if (!item) throw new CommandError(`no review item ${number}`, 1);
    const shown = presented(item);
    const crop = await writeCrop(item, await findFiling(store.db, item.filing_id), options.out);
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
    printLine(crop ? `crop: ${crop}` : 'crop: the document is not in the archive');
  });
}

/** The row's picture beside the fields, written where asked (default ./review-ID.png); its path. */
async function writeCrop(
  item: ReviewItemRow,
  filing: { raw_sha256: string | null } | undefined,
  out: string | undefined,
): Promise<string | null> {
  const sha = filing?.raw_sha256;
  if (!sha) return null;
  const bytes = new DocumentArchive(loadConfig().ingest.archiveDir).get(sha);
  if (!bytes) return null;
  const region = JSON.parse(item.region) as ReviewRegion;
  const png = await rowCropPng(new Uint8Array(bytes), item.page, region, region);
  const path = resolve(out ?? `review-${item.id}.png`);
  writeFileSync(path, png);
  return path;
}

function defaultReviewer(): string {
  return `cli:${userInfo().username}`;
}

async function decide(
  id: string,
  action: 'accept' | 'correct' | 'reject',
  options: { by?: string; field?: string[]; json?: boolean },
): Promise<void> {
  const number = itemId(id);
  const corrections: Record<string, string> = {};
  for (const pair of options.field ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CommandError(`--field takes name=value, got "${pair}"`, 2);
    corrections[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  await withStore(async (store) => {
    try {
      const decided = await decideReviewItem(
        store.db,
        number,
        { action, by: options.by ?? defaultReviewer(), corrections },
        new Date(),
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
    } catch (error) {
      if (error instanceof ReviewError) throw new CommandError(error.message, 2);
      throw error;
    }
  });
}

export const reviewAccept = (id: string, options: { by?: string; json?: boolean }) =>
  decide(id, 'accept', options);
export const reviewReject = (id: string, options: { by?: string; json?: boolean }) =>
  decide(id, 'reject', options);
export const reviewCorrect = (id: string, options: { by?: string; field?: string[]; json?: boolean }) =>
  decide(id, 'correct', options);
