// Executive-branch filers' dates of service, as their OGE 278e reports state them ("Date of
// Appointment", "Date of Termination"): YYYY-MM-DD, or YYYY-MM where the form gives only the
// month. The member matcher checks a filing's date against them as it checks a legislator's
// terms (docs/data-quality.md, "Identity"). Null for legislators and for filers no report dated.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('politicians').addColumn('service_start', 'text').execute();
  await db.schema.alterTable('politicians').addColumn('service_end', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('politicians').dropColumn('service_end').execute();
  await db.schema.alterTable('politicians').dropColumn('service_start').execute();
}
