// What operators watch, read from the database at scrape time (GET /metrics) and by readiness
// probes: the state every role shares, so any api instance reports the same cluster-wide figures.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import { type EnrichmentQueueState, enrichmentQueueState } from './enrichment-jobs.js';
import { fanoutWatermark } from './webhooks.js';

/** A real round trip to the database; throws when it cannot answer. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1 as ok`.execute(db);
}

export interface CountBy {
  key: string;
  count: number;
}

export interface OperationalState {
  deliveriesByStatus: CountBy[];
  attemptsByOutcome: CountBy[];
  /** Events not fanned out yet plus deliveries waiting to be sent. */
  outboxDepth: number;
  ingestSources: Array<{ source: string; status: string; finishedAt: string | null }>;
  documentsByStatus: Array<{ source: string; status: string; count: number }>;
  /** Trades never enriched, or whose market fields are due again. */
  enrichmentPending: number;
  /** When the oldest never-enriched trade was stored; null when there is none. */
  oldestUnenrichedAt: string | null;
  /** The enrichment job queue: jobs waiting and running, and since when the oldest is open. */
  enrichmentJobs: EnrichmentQueueState;
}

export interface OutboxDepth {
  /** Events written to the outbox and not fanned out to their subscriptions yet. */
  events: number;
  /** Deliveries waiting to be sent (first try or a retry). */
  deliveries: number;
}

/** How much webhook work waits: `/metrics`' dcledger_outbox_depth is the sum of the two. */
export async function webhookOutboxDepth(db: Kysely<Database>): Promise<OutboxDepth> {
  const [unfanned, pending] = await Promise.all([
    fanoutWatermark(db).then((watermark) =>
      db
        .selectFrom('events as e')
        .leftJoin('webhook_fanout as f', 'f.event_id', 'e.id')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('e.id', '>', watermark)
        .where('f.event_id', 'is', null)
        .executeTakeFirst(),
    ),
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirst(),
  ]);
  return { events: Number(unfanned?.count ?? 0), deliveries: Number(pending?.count ?? 0) };
}

export async function operationalState(db: Kysely<Database>, today: string): Promise<OperationalState> {
  const [deliveries, attempts, outbox, sources, documents, enrichment, oldest, jobs] = await Promise.all([
    db
      .selectFrom('webhook_deliveries')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute(),
    db
      .selectFrom('webhook_attempts')
      .select(['outcome', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('outcome')
      .execute(),
    webhookOutboxDepth(db),
    db.selectFrom('ingest_state').select(['source', 'last_status', 'last_finished_at']).execute(),
    db
      .selectFrom('ingest_documents')
      .select(['source', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(['source', 'status'])
      .execute(),
    db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where((eb) => eb.or([eb('enriched_at', 'is', null), eb('enrich_due', '<=', today)]))
      .executeTakeFirst(),
    db
      .selectFrom('trades')
      .select((eb) => eb.fn.min('created_at').as('oldest'))
      .where('enriched_at', 'is', null)
      .executeTakeFirst(),
    enrichmentQueueState(db),
  ]);
  return {
    deliveriesByStatus: deliveries.map((row) => ({ key: row.status, count: Number(row.count) })),
    attemptsByOutcome: attempts.map((row) => ({ key: row.outcome, count: Number(row.count) })),
    outboxDepth: outbox.events + outbox.deliveries,
    ingestSources: sources.map((row) => ({
      source: row.source,
      status: row.last_status ?? 'never',
      finishedAt: row.last_finished_at,
    })),
    documentsByStatus: documents.map((row) => ({
      source: row.source,
      status: row.status,
      count: Number(row.count),
    })),
    enrichmentPending: Number(enrichment?.count ?? 0),
    oldestUnenrichedAt: oldest?.oldest ?? null,
    enrichmentJobs: jobs,
  };
}
