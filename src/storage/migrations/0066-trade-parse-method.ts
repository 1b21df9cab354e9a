// Where a trade's values came from: `parse_method` text (read from a document's text layer or a
// data set), ocr (read from a scan by the OCR stage) or manual (a person's correction on review);
// `parse_confidence` the lowest field confidence of a row read by OCR, null otherwise.
import type { Kysely } from 'kysely';
import { withTradeTouchTriggersRefreshed } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Part of what a trade says: a change to them moves `updated_at`.
  await withTradeTouchTriggersRefreshed(db, async () => {
    await db.schema
      .alterTable('trades')
      .addColumn('parse_method', 'text', (c) => c.notNull().defaultTo('text'))
      .execute();
    await db.schema.alterTable('trades').addColumn('parse_confidence', 'real').execute();
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await withTradeTouchTriggersRefreshed(db, async () => {
    await db.schema.alterTable('trades').dropColumn('parse_confidence').execute();
    await db.schema.alterTable('trades').dropColumn('parse_method').execute();
  });
}
