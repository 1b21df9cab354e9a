// `dcledger webhooks reseal`.
import { loadConfig } from '../config.js';
import { openMigratedStore } from '../storage/open.js';
import { resealClearSecrets } from '../webhooks/reseal.js';
import { CommandError, printLine } from './output.js';

export async function webhooksResealCommand(): Promise<void> {
  const config = loadConfig();
  const key = config.webhooks.secretKey;
  if (!key) {
    throw new CommandError(
      'DCLEDGER_WEBHOOK_SECRET_KEY is not set: there is no key to seal the secrets with (e.g. `openssl rand -base64 32`)',
      2,
    );
  }
  const store = await openMigratedStore(config.database);
  try {
    const { found, sealed } = await resealClearSecrets(store.db, key, new Date());
    printLine(`sealed ${sealed} of ${found} clear-text webhook secrets on ${store.target}`);
  } finally {
    await store.close();
  }
}
