// `dcledger webhooks reseal`.
import { loadConfig } from '../config.js';
import { openMigratedStore } from '../storage/open.js';
import { resealClearSecrets } from '../webhooks/reseal.js';
import { defaultKeyFile, webhookSecretKey } from '../webhooks/secret-key.js';
import { printLine } from './output.js';

/**
 * Seals the secrets stored in clear under the key `serve` uses (DCLEDGER_WEBHOOK_SECRET_KEY, or the
 * data directory's key file, created when there is none). `serve` and `worker` do the same at start.
 */
export async function webhooksResealCommand(): Promise<void> {
  const config = loadConfig();
  const { key, file, source } = webhookSecretKey(
    config.webhooks,
    defaultKeyFile(config.database, config.ingest.archiveDir),
  );
  const store = await openMigratedStore(config.database);
  try {
    const { found, sealed } = await resealClearSecrets(store.db, key, new Date());
    const under = source === 'setting' ? 'DCLEDGER_WEBHOOK_SECRET_KEY' : `the key in ${file}`;
    printLine(`sealed ${sealed} of ${found} clear-text webhook secrets on ${store.target} under ${under}`);
  } finally {
    await store.close();
  }
}
