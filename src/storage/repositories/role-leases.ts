// Leases on roles only one process may play at a time (the scheduler), and the scheduler's runs.
// A lease is one row: taking it over is one conditional upsert, so two processes can never both
// believe they hold it; the database's row lock decides between simultaneous takers.
import type { Kysely } from 'kysely';
import { lockingSelected } from '../dialect.js';
import type { Database } from '../schema.js';
import { inTransaction } from '../transaction.js';

/** The lease the active scheduler holds (scheduler-lease.ts). */
export const SCHEDULER_LEASE = 'scheduler';

/** What /status shows for a source whose scheduled run was cut off (interruptedSources). */
export const INTERRUPTED = 'interrupted';

export interface LeaseClaim {
  name: string;
  holder: string;
  now: string;
  expiresAt: string;
}

/**
 * Takes the lease, or renews it when `holder` already has it. True when `holder` holds it until
 * `expiresAt`; false while another holder's lease has not expired.
 */
export async function acquireLease(db: Kysely<Database>, claim: LeaseClaim): Promise<boolean> {
  const row = await db
    .insertInto('role_leases')
    .values({ name: claim.name, holder: claim.holder, acquired_at: claim.now, expires_at: claim.expiresAt })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({
          holder: eb.ref('excluded.holder'),
          expires_at: eb.ref('excluded.expires_at'),
          acquired_at: eb
            .case()
            .when('role_leases.holder', '=', claim.holder)
            .then(eb.ref('role_leases.acquired_at'))
            .else(eb.ref('excluded.acquired_at'))
            .end(),
        }))
        .where((eb) =>
          eb.or([eb('role_leases.holder', '=', claim.holder), eb('role_leases.expires_at', '<=', claim.now)]),
        ),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === claim.holder;
}

/** Gives the lease up at once (a clean shutdown), so a standby need not wait for it to expire. */
export async function releaseLease(db: Kysely<Database>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('role_leases').where('name', '=', name).where('holder', '=', holder).execute();
}

export async function leaseHolder(
  db: Kysely<Database>,
  name: string,
): Promise<{ holder: string; expires_at: string } | undefined> {
  return db
    .selectFrom('role_leases')
    .select(['holder', 'expires_at'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/**
 * Records the start of a scheduled run, only while `holder` still holds the lease `name` (checked
 * under the lease row's lock): the id of the run, or undefined when the lease was lost.
 */
export async function startLeasedRun(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: string,
): Promise<number | undefined> {
  return inTransaction(db, async (trx) => {
    const lease = await lockingSelected(
      trx,
      trx.selectFrom('role_leases').select(['holder', 'expires_at']).where('name', '=', name),
    ).executeTakeFirst();
    if (!lease || lease.holder !== holder || lease.expires_at <= now) return undefined;
    const run = await trx
      .insertInto('scheduler_runs')
      .values({ holder, started_at: now, finished_at: null, status: 'running', error: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return run.id;
  });
}

/** Records the start of an ingest run started by hand (`dcledger ingest`): no lease, its own holder. */
export async function startManualRun(db: Kysely<Database>, holder: string, now: string): Promise<number> {
  const run = await db
    .insertInto('scheduler_runs')
    .values({ holder, started_at: now, finished_at: null, status: 'running', error: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return run.id;
}

export async function finishRun(
  db: Kysely<Database>,
  id: number,
  outcome: { status: 'completed' | 'failed' | 'aborted'; error: string | null; now: string },
): Promise<void> {
  await db
    .updateTable('scheduler_runs')
    .set({ status: outcome.status, error: outcome.error, finished_at: outcome.now })
    .where('id', '=', id)
    .execute();
}

export interface SchedulerRunRow {
  id: number;
  holder: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  error: string | null;
}

/** The scheduler's runs, oldest first. */
export async function schedulerRuns(db: Kysely<Database>): Promise<SchedulerRunRow[]> {
  return db.selectFrom('scheduler_runs').selectAll().orderBy('id').execute();
}

/**
 * The sources whose last run is recorded as running but is not: the scheduled run that started it
 * is still "running" while its scheduler no longer holds the lease `name` (a process killed without
 * shutting down leaves both rows saying "running"; its lease expires within the lease time, or a
 * new scheduler took it). A run started by hand (`cli:` holder) holds no lease, so it is taken at
 * its word; a source run outside any recorded run (a library call) likewise.
 */
export async function interruptedSources(
  db: Kysely<Database>,
  name: string,
  now: string,
): Promise<Set<string>> {
  const running = await db
    .selectFrom('ingest_state')
    .select(['source', 'last_started_at'])
    .where('last_status', '=', 'running')
    .execute();
  const interrupted = new Set<string>();
  if (running.length === 0) return interrupted;
  const lease = await leaseHolder(db, name);
  for (const state of running) {
    if (!state.last_started_at) continue;
    const run = await db
      .selectFrom('scheduler_runs')
      .select(['holder', 'status'])
      .where('started_at', '<=', state.last_started_at)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (run?.status !== 'running' || run.holder.startsWith('cli:')) continue;
    const held = lease?.holder === run.holder && lease.expires_at > now;
    if (!held) interrupted.add(state.source);
  }
  return interrupted;
}
