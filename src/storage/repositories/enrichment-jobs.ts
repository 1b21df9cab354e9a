// The enrichment job queue (migration 0019-jobs). A job is one enrichment run; workers claim it
// under a lease (PostgreSQL: `for update skip locked`, see claimingUnlocked), renew the lease while
// they run it, and record its outcome only while they still hold it.
//
// Enrichment recomputes shared tables, so one job runs at a time: one job waits at a time (the
// unique queue_key), a claim takes the waiting job only while no job holds a live lease, and a job
// whose worker died is put back as the waiting job (or folded into it) before anything is claimed.
// So two claimers can only ever race for the one waiting row, which the row lock gives to one.
import type { Kysely, Selectable } from 'kysely';
import { claimingUnlocked, lockingSelected, withDueIds } from '../dialect.js';
import type { EnrichmentJobsTable } from '../schema/operations.js';
import type { Database } from '../schema.js';
import { inTransaction } from '../transaction.js';

export type EnrichmentJobRow = Selectable<EnrichmentJobsTable>;

/** The queue_key of the one waiting job. */
const WAITING = 'enrichment';

export interface EnqueuedJob {
  id: number;
  /** True when the request was folded into a job that was already waiting. */
  merged: boolean;
}

/**
 * Asks for an enrichment run: a new waiting job, or the one already waiting (a full run asked for
 * makes it full). A job waiting for a retry keeps its time.
 */
export async function enqueueEnrichmentJob(
  db: Kysely<Database>,
  request: { full: boolean; requestedBy: string; now: string },
): Promise<EnqueuedJob> {
  const row = await db
    .insertInto('enrichment_jobs')
    .values({
      queue_key: WAITING,
      full_run: request.full ? 1 : 0,
      status: 'pending',
      requested_by: request.requestedBy,
      requests: 1,
      attempts: 0,
      next_attempt_at: request.now,
      created_at: request.now,
      updated_at: request.now,
    })
    .onConflict((oc) =>
      oc.column('queue_key').doUpdateSet((eb) => ({
        full_run: eb
          .case()
          .when('excluded.full_run', '=', 1)
          .then(1)
          .else(eb.ref('enrichment_jobs.full_run'))
          .end(),
        requests: eb('enrichment_jobs.requests', '+', 1),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returning(['id', 'created_at', 'requests'])
    .executeTakeFirstOrThrow();
  return { id: row.id, merged: row.requests > 1 };
}

/**
 * Claims the waiting job when it is due (`dueBy`) and no other job holds a live lease; the claim
 * clears queue_key (later requests wait as the next job) and counts an attempt.
 */
export async function claimEnrichmentJob(
  db: Kysely<Database>,
  claim: { now: string; dueBy: string; token: string; leaseUntil: string },
): Promise<EnrichmentJobRow | undefined> {
  return withDueIds(db, (qb) =>
    qb
      .selectFrom('enrichment_jobs')
      .select('id')
      .where('queue_key', '=', WAITING)
      .where('next_attempt_at', '<=', claim.dueBy)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('enrichment_jobs as live')
              .select('live.id')
              .where('live.status', '=', 'running')
              .where('live.lease_expires_at', '>', claim.now),
          ),
        ),
      )
      .limit(1),
  )
    .updateTable('enrichment_jobs')
    .set((eb) => ({
      queue_key: null,
      status: 'running',
      attempts: eb('attempts', '+', 1),
      lease_token: claim.token,
      lease_expires_at: claim.leaseUntil,
      started_at: eb.fn.coalesce('started_at', eb.val(claim.now)),
      progress_phase: null,
      progress_done: null,
      progress_total: null,
      updated_at: claim.now,
    }))
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .where('queue_key', '=', WAITING)
    .returningAll()
    .executeTakeFirst();
}

export interface JobProgress {
  phase: string;
  done: number;
  total: number;
}

/**
 * Extends the lease of a job the worker still holds and stores its progress; false when the job
 * is no longer this worker's (its lease lapsed and it was put back or taken over).
 */
export async function renewEnrichmentJob(
  db: Kysely<Database>,
  renewal: { id: number; token: string; now: string; leaseUntil: string; progress?: JobProgress },
): Promise<boolean> {
  const { progress } = renewal;
  const row = await db
    .updateTable('enrichment_jobs')
    .set({
      lease_expires_at: renewal.leaseUntil,
      updated_at: renewal.now,
      ...(progress
        ? { progress_phase: progress.phase, progress_done: progress.done, progress_total: progress.total }
        : {}),
    })
    .where('id', '=', renewal.id)
    .where('lease_token', '=', renewal.token)
    .where('status', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a finished run; false when the lease was lost first (the outcome is then not written). */
export async function completeEnrichmentJob(
  db: Kysely<Database>,
  outcome: { id: number; token: string; now: string; result: string },
): Promise<boolean> {
  const row = await db
    .updateTable('enrichment_jobs')
    .set({
      status: 'completed',
      result: outcome.result,
      error: null,
      lease_token: null,
      lease_expires_at: null,
      finished_at: outcome.now,
      updated_at: outcome.now,
    })
    .where('id', '=', outcome.id)
    .where('lease_token', '=', outcome.token)
    .where('status', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** What became of a job that did not finish: waiting again, folded into the waiting job, or given up. */
export type RequeueOutcome = 'retry' | 'merged' | 'failed' | 'lost';

/**
 * Records a failed attempt of a job this worker holds: it waits again until `retryAt` (or is
 * folded into the job already waiting, which does the same work), or, with `retryAt` null, fails
 * for good. 'lost' when the lease was lost first.
 */
export async function failEnrichmentJob(
  db: Kysely<Database>,
  failure: {
    id: number;
    token: string;
    now: string;
    error: string;
    retryAt: string | null;
    /** The attempt is not counted (the worker stopped; the job did not fail). */
    refund?: boolean;
  },
): Promise<RequeueOutcome> {
  return inTransaction(db, async (trx) => {
    const job = await lockingSelected(
      trx,
      trx
        .selectFrom('enrichment_jobs')
        .selectAll()
        .where('id', '=', failure.id)
        .where('lease_token', '=', failure.token)
        .where('status', '=', 'running'),
    ).executeTakeFirst();
    if (!job) return 'lost';
    if (failure.refund)
      await trx
        .updateTable('enrichment_jobs')
        .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
        .where('id', '=', job.id)
        .execute();
    return putBack(trx, job, failure);
  });
}

/**
 * Jobs whose worker stopped renewing (crashed, killed, stalled past the lease): each waits again at
 * once (or is folded into the waiting job), or fails after `maxAttempts`. Returns what was done.
 */
export async function reclaimExpiredEnrichmentJobs(
  db: Kysely<Database>,
  reclaim: { now: string; maxAttempts: number },
): Promise<Array<{ id: number; outcome: RequeueOutcome }>> {
  return inTransaction(db, async (trx) => {
    const expired = await claimingUnlocked(
      trx,
      trx
        .selectFrom('enrichment_jobs')
        .selectAll()
        .where('status', '=', 'running')
        .where('lease_expires_at', '<=', reclaim.now)
        .orderBy('id'),
    ).execute();
    const done: Array<{ id: number; outcome: RequeueOutcome }> = [];
    for (const job of expired) {
      const error = `the worker running attempt ${job.attempts} stopped renewing its lease`;
      const retryAt = job.attempts >= reclaim.maxAttempts ? null : reclaim.now;
      done.push({ id: job.id, outcome: await putBack(trx, job, { now: reclaim.now, error, retryAt }) });
    }
    return done;
  });
}

/**
 * A job that did not finish waits again, or folds into the job already waiting. On PostgreSQL an
 * enqueue committing between the look for a waiting job and the update can make the update break
 * the unique queue_key; the transaction then rolls back, the job keeps its (expiring) lease, and
 * the next reclaim after the lease folds it into that new job.
 */
async function putBack(
  trx: Kysely<Database>,
  job: EnrichmentJobRow,
  failure: { now: string; error: string; retryAt: string | null },
): Promise<RequeueOutcome> {
  const released = { lease_token: null, lease_expires_at: null, updated_at: failure.now };
  if (failure.retryAt === null) {
    await trx
      .updateTable('enrichment_jobs')
      .set({ ...released, status: 'failed', error: failure.error, finished_at: failure.now })
      .where('id', '=', job.id)
      .execute();
    return 'failed';
  }
  const waiting = await lockingSelected(
    trx,
    trx.selectFrom('enrichment_jobs').select('id').where('queue_key', '=', WAITING),
  ).executeTakeFirst();
  if (waiting) {
    await trx
      .updateTable('enrichment_jobs')
      .set((eb) => ({
        full_run: job.full_run === 1 ? 1 : eb.ref('full_run'),
        requests: eb('requests', '+', job.requests),
        updated_at: failure.now,
      }))
      .where('id', '=', waiting.id)
      .execute();
    await trx
      .updateTable('enrichment_jobs')
      .set({
        ...released,
        status: 'failed',
        error: `${failure.error}; its work is left to job ${waiting.id}`,
        finished_at: failure.now,
      })
      .where('id', '=', job.id)
      .execute();
    return 'merged';
  }
  await trx
    .updateTable('enrichment_jobs')
    .set({
      ...released,
      status: 'pending',
      queue_key: WAITING,
      error: failure.error,
      next_attempt_at: failure.retryAt,
    })
    .where('id', '=', job.id)
    .execute();
  return 'retry';
}

export async function enrichmentJob(db: Kysely<Database>, id: number): Promise<EnrichmentJobRow | undefined> {
  return db.selectFrom('enrichment_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The status a job row can have: waiting to be claimed, running under a lease, or finished. */
export type EnrichmentJobStatus = 'pending' | 'running' | 'completed' | 'failed';

/** The most recent jobs, newest first; only those in `status` when given. */
export async function recentEnrichmentJobs(
  db: Kysely<Database>,
  options: { limit: number; status?: EnrichmentJobStatus },
): Promise<EnrichmentJobRow[]> {
  let query = db.selectFrom('enrichment_jobs').selectAll();
  if (options.status) query = query.where('status', '=', options.status);
  return query.orderBy('id', 'desc').limit(options.limit).execute();
}

export interface EnrichmentQueueState {
  /** Jobs waiting to be claimed (0 or 1: requests fold into the waiting job). */
  waiting: number;
  running: number;
  /** created_at of the oldest job not finished, or null. */
  oldestOpenSince: string | null;
}

export async function enrichmentQueueState(db: Kysely<Database>): Promise<EnrichmentQueueState> {
  const rows = await db
    .selectFrom('enrichment_jobs')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
    .where('status', 'in', ['pending', 'running'])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((row) => row.status === status)?.n ?? 0);
  const oldest = rows
    .map((row) => row.oldest)
    .filter((value): value is string => typeof value === 'string')
    .sort()[0];
  return { waiting: count('pending'), running: count('running'), oldestOpenSince: oldest ?? null };
}
