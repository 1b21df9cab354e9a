// The key that seals subscription secrets at rest, for the processes that store or send webhooks
// (`serve` with the api or worker role, `dcledger worker`, `dcledger webhooks reseal`). Secrets are
// sealed whether or not an operator configures a key: DCLEDGER_WEBHOOK_SECRET_KEY when set, else
// a key file kept beside the data (DCLEDGER_WEBHOOK_SECRET_KEY_FILE, default webhook-secret.key in
// the data directory), generated on first start with mode 0600. The file is what a copy of the
// database lacks: the database alone does not reveal a secret.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Kysely } from 'kysely';
import { ConfigError } from '../config/read.js';
import { decodeSecretKey, type WebhookSettings } from '../config/webhooks.js';
import type { DatabaseConfig } from '../config.js';
import { countSecretsSealedElsewhere } from '../storage/repositories/webhook-subscriptions.js';
import type { Database } from '../storage/schema.js';
import { resealClearSecrets } from './reseal.js';
import { SecretBox } from './secrets.js';

export const KEY_FILE_NAME = 'webhook-secret.key';

/**
 * The data directory's key file: beside the SQLite database, or, on PostgreSQL (or an in-memory
 * database), in the directory that holds the document archive (./var by default for both).
 */
export function defaultKeyFile(database: DatabaseConfig, archiveDir: string): string {
  if (database.kind === 'sqlite' && database.file !== ':memory:')
    return join(dirname(database.file), KEY_FILE_NAME);
  return join(dirname(archiveDir), KEY_FILE_NAME);
}

export interface WebhookKey {
  key: Buffer;
  /** `setting`: DCLEDGER_WEBHOOK_SECRET_KEY; `file`: an existing key file; `generated`: created now. */
  source: 'setting' | 'file' | 'generated';
  /** The key file, unless the setting gave the key. */
  file?: string;
  /** Something the operator should fix (a key file others may read), never the key. */
  warning?: string;
}

/**
 * The configured key, or the key file's, creating the file when there is none. Several processes
 * starting at once on one data directory agree on one key: the file is written under a temporary
 * name and linked into place, which fails for all but the first (they then read the first's).
 */
export function webhookSecretKey(
  settings: Pick<WebhookSettings, 'secretKey' | 'secretKeyFile'>,
  defaultFile: string,
): WebhookKey {
  if (settings.secretKey) return { key: settings.secretKey, source: 'setting' };
  const file = settings.secretKeyFile ?? defaultFile;
  const existing = readKeyFile(file);
  if (existing) return existing;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = readKeyFile(file);
    if (winner) return winner;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
  const created = readKeyFile(file);
  if (!created) throw new ConfigError(`the webhook secret key file ${file} could not be read back`);
  return { ...created, source: 'generated' };
}

function readKeyFile(file: string): WebhookKey | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = decodeSecretKey(text);
  if (!key)
    throw new ConfigError(
      `the webhook secret key file ${file} does not hold a 32-byte key (64 hex characters or base64); restore it from your backup`,
    );
  // Group or others may read it: said at every start, not refused (a mounted secret may be 0644).
  const mode = statSync(file).mode & 0o777;
  const warning =
    (mode & 0o077) !== 0
      ? `the webhook secret key file ${file} is readable by other users (mode 0${mode.toString(8)}); chmod 600 it`
      : undefined;
  return { key, source: 'file', file, warning };
}

interface KeyLog {
  info(bindings: object, message: string): void;
  warn(bindings: object, message: string): void;
  error(bindings: object, message: string): void;
}

/**
 * Resolves the key (webhookSecretKey), then, with it: seals the secrets still stored in clear
 * (written before secrets were sealed by default; each row only if nobody changed it meanwhile, so
 * processes starting together do not collide) and says when secrets were sealed under another key,
 * which this process cannot open. Returns the settings with the key in them.
 */
export async function prepareWebhookKey(
  db: Kysely<Database>,
  settings: WebhookSettings,
  defaultFile: string,
  log: KeyLog,
  now: Date = new Date(),
): Promise<WebhookSettings> {
  const resolved = webhookSecretKey(settings, defaultFile);
  if (resolved.source === 'generated')
    log.info(
      { file: resolved.file },
      'webhook secret key generated (mode 0600): subscription secrets are sealed with it; keep it with your database backups',
    );
  if (resolved.warning) log.warn({ file: resolved.file }, resolved.warning);
  const { sealed } = await resealClearSecrets(db, resolved.key, now);
  if (sealed > 0) log.info({ sealed }, `sealed ${sealed} webhook secrets stored in clear`);
  const fingerprint = new SecretBox(resolved.key).fingerprint;
  const elsewhere = await countSecretsSealedElsewhere(db, fingerprint ?? '');
  if (elsewhere > 0)
    log.error(
      { secrets: elsewhere, fingerprint },
      `${elsewhere} webhook secrets were sealed with another key than this process's: their deliveries cannot be signed here. Give every process the same DCLEDGER_WEBHOOK_SECRET_KEY or key file`,
    );
  return { ...settings, secretKey: resolved.key };
}
