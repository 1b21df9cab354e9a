// The events outbox. Writers call emitEvent inside the transaction that stores the data, so an
// event exists exactly when its data does; the unique (type, subject) makes re-runs emit nothing.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface EventWrite {
  type: string;
  subjectKey: string;
  ticker?: string | null;
  politicianSlug?: string | null;
  data: unknown;
  /** The API request that caused the event (none for ingest); the worker logs it as `request_id`. */
  requestId?: string | null;
  /** The ingest run (scheduler_runs.id) that caused the event; the worker logs it as `run`. */
  runId?: number | null;
}

/** Returns true when the event is new, false when this subject already had it. */
export async function emitEvent(db: Kysely<Database>, event: EventWrite, now: string): Promise<boolean> {
  const inserted = await db
    .insertInto('events')
    .values({
      type: event.type,
      subject_key: event.subjectKey,
      ticker: event.ticker ?? null,
      politician_slug: event.politicianSlug ?? null,
      data: JSON.stringify(event.data),
      created_at: now,
      request_id: event.requestId ?? null,
      run_id: event.runId ?? null,
    })
    .onConflict((oc) => oc.columns(['type', 'subject_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export interface StoredEvent {
  id: number;
  type: string;
  subject_key: string;
  ticker: string | null;
  politician_slug: string | null;
  data: unknown;
  created_at: string;
}

/** Events stored after `afterId`, oldest first. */
export async function eventsAfter(
  db: Kysely<Database>,
  afterId: number,
  limit: number,
): Promise<StoredEvent[]> {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, data: JSON.parse(row.data) as unknown }));
}
