// Numbered migrations, applied in order on SQLite and PostgreSQL alike.
import { type Kysely, type Migration, type MigrationResult, Migrator } from 'kysely';
import * as core from './migrations/0001-core.js';
import * as accounts from './migrations/0002-accounts.js';
import * as events from './migrations/0004-events.js';
import * as ingest from './migrations/0006-ingest.js';
import type { Database } from './schema.js';

export const migrations: Record<string, Migration> = {
  '0001-core': core,
  '0002-accounts': accounts,
  // 0003 is the market data migration.
  '0004-events': events,
  // 0005 is the webhook delivery migration.
  '0006-ingest': ingest,
};

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result: MigrationResult) => result.status === 'Error');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
