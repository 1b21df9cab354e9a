// The pictures of review rows (GET /ui/review/{id}/crop.png, `dcledger review --picture`): drawn
// once on a worker thread of their own (review-crop-thread.ts), not on the thread that answers API
// calls, and kept as PNG files beside the document archive, so showing a row again, after a
// restart too, reads a file. A picture never changes: it is named by the document's hash, the
// page and the row's region.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import Tinypool from 'tinypool';
import { DocumentArchive } from '../ingest/fetch/archive.js';
import type { ReviewRegion } from '../ingest/pipeline/review-items.js';
import { findFiling } from '../storage/repositories/filings.js';
import { reviewItem } from '../storage/repositories/review.js';
import type { Database } from '../storage/schema.js';
import { threadModule } from '../threads.js';
import type { CropTask } from './review-crop-thread.js';

/** The folder of drawn pictures inside the archive directory (the documents sit in 00…ff). */
export const CROPS_FOLDER = 'review-crops';

export class ReviewCrops {
  private pool: Tinypool | undefined;
  private drawnHere = 0;

  /**
   * `thread: false` draws in the calling thread: for a one-shot command (`dcledger review show`),
   * which has no other calls to keep answering and would only pay for starting a thread.
   */
  constructor(
    private readonly archiveDir: string,
    private readonly options: { thread?: boolean } = {},
  ) {}

  /** Pictures this instance drew, on its thread or in process (the rest were read from their files). */
  get drawn(): number {
    return this.drawnHere;
  }

  /**
   * The row's picture (PNG): its page rendered from the archived document and turned upright as the
   * OCR stage read it, the row with a margin of the rows around it. Null when the item is unknown,
   * was read from no place on a page (a row a person added) or its document is not in the archive.
   */
  async png(db: Kysely<Database>, id: number): Promise<Buffer | null> {
    const item = await reviewItem(db, id);
    if (!item) return null;
    const sha = (await findFiling(db, item.filing_id))?.raw_sha256;
    if (!sha) return null;
    const region = JSON.parse(item.region) as Partial<ReviewRegion>;
    // A row a person added, or a filing settled, was read from no place on a page.
    if (!isRegion(region)) return null;
    const file = join(this.archiveDir, CROPS_FOLDER, `${sha}-${item.page}-${regionKey(region)}.png`);
    if (existsSync(file)) return readFileSync(file);
    const document = new DocumentArchive(this.archiveDir).get(sha);
    if (!document) return null;
    const png = await this.draw({ document: new Uint8Array(document), page: item.page, region });
    this.drawnHere += 1;
    mkdirSync(join(this.archiveDir, CROPS_FOLDER), { recursive: true });
    // Write then rename: a reader never sees half a picture.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, png);
    renameSync(temporary, file);
    return png;
  }

  private async draw(task: CropTask): Promise<Buffer> {
    if (this.options.thread === false) {
      // Loaded here, not with this module: the drawing needs the canvas's native library (~20 MB),
      // which a server that never draws a row on its own thread should not hold.
      const { crop } = await import('./review-crop-thread.js');
      return Buffer.from(await crop(task));
    }
    this.pool ??= new Tinypool({
      filename: threadModule(import.meta.url, 'review-crop-thread', ['crop']),
      name: 'crop',
      minThreads: 0,
      maxThreads: 1,
      // An operator going through the queue keeps the thread; an idle server gives its memory back.
      idleTimeout: 30_000,
    });
    // The document's bytes are a copy of the archive's: handed over to the thread, not cloned.
    return Buffer.from(
      (await this.pool.run(task, { transferList: [task.document.buffer as ArrayBuffer] })) as Uint8Array,
    );
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}

function isRegion(region: Partial<ReviewRegion>): region is ReviewRegion {
  return typeof region.width === 'number' && typeof region.height === 'number';
}

/** The region's numbers as part of a file name (skew is a fraction: rounded to a millionth). */
function regionKey(region: ReviewRegion): string {
  return [region.x, region.y, region.width, region.height, region.quarterTurns, region.dpi]
    .map((value) => Math.round(value))
    .concat(Math.round(region.skew * 1e6))
    .join('_');
}
