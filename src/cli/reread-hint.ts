// The hint `dcledger companies import` and an ingest run that filled the company directory print.
import type { Kysely } from 'kysely';
import { waitingReviewCount } from '../services/review-queue.js';
import type { Database } from '../storage/schema.js';
import { printLine } from './output.js';

/**
 * After companies were imported: scans read before they were known wait for a person on names
 * these now settle, and how to read them again.
 */
export async function printRereadHint(db: Kysely<Database>): Promise<void> {
  const waiting = await waitingReviewCount(db);
  if (waiting > 0)
    printLine(
      `${waiting} row(s) read from scans wait for review: \`dcledger review reread\` reads their scans again with these companies (the next ingest run reads again those read while the database held none)`,
    );
}
