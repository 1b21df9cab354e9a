// Opens and migrates the configured database: what every command does first.
import type { DatabaseConfig } from '../config.js';
import { openStore, type Store } from './database.js';
import { migrateToLatest } from './migrate.js';
import { databaseOpenError } from './open-error.js';

export async function openMigratedStore(config: DatabaseConfig): Promise<Store> {
  const store = openStore(config);
  try {
    await migrateToLatest(store.db);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw databaseOpenError(store.target, error);
  }
  return store;
}
