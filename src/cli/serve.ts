// `dcledger serve` and `dcledger migrate`.
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openStore } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { openMigratedStore } from '../storage/open.js';
import { printLine } from './output.js';

export async function serveCommand(): Promise<void> {
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  const app = await buildApp(
    { db: store.db, dialect: store.dialect, clock: () => new Date(), publicUrl: config.publicUrl },
    { logger: { level: config.logLevel } },
  );
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: store.target, dialect: store.dialect }, 'dcledger serving');
}

export async function migrateCommand(): Promise<void> {
  const store = openStore(loadConfig().database);
  try {
    const { applied } = await migrateToLatest(store.db);
    printLine(
      applied.length ? `applied ${applied.join(', ')} on ${store.target}` : `${store.target} is up to date`,
    );
  } finally {
    await store.close();
  }
}
