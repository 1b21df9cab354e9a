// The bulk history as GET /bulk/trades serves it: the stored file of a format, rebuilt first when
// the trades changed since it was built (ingest and enrichment rebuild it as they finish, so this
// is for changes made some other way, e.g. a data-set import or a price import).
import type { Kysely } from 'kysely';
import {
  BULK_FORMATS,
  type BulkFormat,
  bulkHistoryCurrent,
  rebuildBulkHistory,
} from '../resources/bulk-trades.js';
import {
  type BulkExportMeta,
  bulkExportContent,
  bulkExportMeta,
} from '../storage/repositories/bulk-exports.js';
import type { Database } from '../storage/schema.js';

export { BULK_COLUMNS, BULK_FORMATS, type BulkFormat } from '../resources/bulk-trades.js';

/** The current file of `format` (its metadata; the bytes are read once the answer is decided). */
export async function currentBulkFile(
  db: Kysely<Database>,
  format: BulkFormat,
  now: Date,
): Promise<BulkExportMeta> {
  if (!(await bulkHistoryCurrent(db))) await rebuildBulkHistory(db, now);
  const meta = await bulkExportMeta(db, BULK_FORMATS[format].name);
  if (!meta) throw new Error(`bulk history ${format} was not built`);
  return meta;
}

/** The gzip bytes of the file `meta` describes, or of its successor when a rebuild replaced it meanwhile. */
export async function bulkFileContent(
  db: Kysely<Database>,
  meta: BulkExportMeta,
): Promise<{ meta: BulkExportMeta; content: Buffer }> {
  const content = await bulkExportContent(db, meta.name, meta.etag);
  if (content) return { meta, content };
  const latest = await bulkExportMeta(db, meta.name);
  const again = latest ? await bulkExportContent(db, latest.name, latest.etag) : undefined;
  if (!latest || !again) throw new Error(`bulk history ${meta.name} disappeared while being read`);
  return { meta: latest, content: again };
}
