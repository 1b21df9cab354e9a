// What operators watch, read from the database at scrape time (GET /metrics) and by readiness
// probes: the state every role shares, so any api instance reports the same cluster-wide figures.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import { type EnrichmentQueueState, enrichmentQueueState } from './enrichment-jobs.js';
import { fanoutFloor, fanoutWatermark } from './webhook-fanout.js';
import { RECEIVING } from './webhook-subscriptions.js';

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
  /** Events some subscription will receive, not fanned out yet, plus deliveries waiting to be sent. */
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
  /** Events some subscription will receive that are not fanned out to their deliveries yet. */
  events: number;
  /** Deliveries waiting to be sent (first try or a retry). */
  deliveries: number;
}

/** Who receives events now: the plans that reach webhooks (the accounts layer knows them) and the time. */
export interface OutboxReceivers {
  plans: readonly string[];
  /** ISO time: an account whose trial ended before it receives nothing. */
  now: string;
}

/**
 * How much webhook work waits: `/metrics`' dcledger_outbox_depth is the sum of the two. An event
 * counts only while some subscription will receive it, by the rules the fan-out applies: a
 * receiving subscription of that event type, created before the event (start_event_id), of an
 * unrevoked key whose account is on a webhook plan, whose filter (if any) names the event's ticker
 * or member slug. Events stored before every subscription, or of types nobody subscribes to, are
 * never sent and are not counted. For `disclosure.detected`, a filter is matched against the
 * quoted value anywhere in the event's data (the fan-out reads its `tickers`), which can only count
 * an event the fan-out then skips, never miss one.
 */
export async function webhookOutboxDepth(
  db: Kysely<Database>,
  receivers: OutboxReceivers,
): Promise<OutboxDepth> {
  const unfanned = async () => {
    if (receivers.plans.length === 0) return 0;
    const after = Math.max(await fanoutWatermark(db), await fanoutFloor(db));
    const filter = sql<string>`lower(s.filter_value)`;
    const row = await db
      .selectFrom('events as e')
      .leftJoin('webhook_fanout as f', 'f.event_id', 'e.id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('e.id', '>', after)
      .where('f.event_id', 'is', null)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('webhook_subscriptions as s')
            .innerJoin('api_keys as k', 'k.id', 's.key_id')
            .innerJoin('accounts as a', 'a.id', 's.account_id')
            .select(sql<number>`1`.as('one'))
            .whereRef('s.alert_type', '=', 'e.type')
            .whereRef('s.start_event_id', '<', 'e.id')
            .where('s.status', 'in', [...RECEIVING])
            .where('s.deleted_at', 'is', null)
            .where('k.revoked_at', 'is', null)
            .where('a.plan', 'in', [...receivers.plans])
            .where((eb) =>
              eb.or([eb('a.trial_ends_at', 'is', null), eb('a.trial_ends_at', '>', receivers.now)]),
            )
            .where((eb) =>
              eb.or([
                eb('s.filter_value', 'is', null),
                eb(filter, '=', sql<string>`lower(e.ticker)`),
                eb(filter, '=', sql<string>`lower(e.politician_slug)`),
                eb.and([
                  eb('e.type', '=', 'disclosure.detected'),
                  eb(sql<string>`lower(e.data)`, 'like', sql<string>`'%"' || ${filter} || '"%'`),
                ]),
              ]),
            ),
        ),
      )
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  };
  const [events, pending] = await Promise.all([
    unfanned(),
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirst(),
  ]);
  return { events, deliveries: Number(pending?.count ?? 0) };
}

export async function operationalState(
  db: Kysely<Database>,
  today: string,
  receivers: OutboxReceivers,
): Promise<OperationalState> {
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
    webhookOutboxDepth(db, receivers),
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
