// The worker's fan-out of outbox events into deliveries, and the watermark of its progress.
import type { Kysely } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import type { Database } from '../schema.js';
import { inTransaction } from '../transaction.js';
import type { NewDelivery } from './webhook-deliveries.js';
import { RECEIVING } from './webhook-subscriptions.js';

/** The newest event in the outbox (0 when empty): a new subscription receives what comes after. */
export async function latestEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export interface OutboxEvent {
  id: number;
  type: string;
  ticker: string | null;
  politician_slug: string | null;
  /** The REST resource as stored: JSON text, sent as is. */
  data: string;
  created_at: string;
  /** The API request that wrote the event, if one did; its deliveries carry it too. */
  request_id: string | null;
  /** The ingest run that wrote the event, if one did; its deliveries carry it too. */
  run_id: number | null;
}

const WATERMARK = 'fanout_watermark';

/** Every event at or below the watermark has been fanned out or can no longer reach anyone. */
export async function fanoutWatermark(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('webhook_worker_state')
    .select('value')
    .where('name', '=', WATERMARK)
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

/**
 * The lowest event id any subscription could still receive, minus one: a subscription receives
 * events after its start_event_id. With no live subscription, the newest event id.
 */
export async function fanoutFloor(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.min('start_event_id').as('start'))
    .where('deleted_at', 'is', null)
    .where('status', 'in', [...RECEIVING])
    .executeTakeFirst();
  return row?.start === null || row?.start === undefined ? latestEventId(db) : Number(row.start);
}

/** Events above `after` not fanned out yet, oldest first. */
export async function unfannedEvents(
  db: Kysely<Database>,
  after: number,
  limit: number,
): Promise<OutboxEvent[]> {
  return db
    .selectFrom('events as e')
    .leftJoin('webhook_fanout as f', 'f.event_id', 'e.id')
    .select([
      'e.id',
      'e.type',
      'e.ticker',
      'e.politician_slug',
      'e.data',
      'e.created_at',
      'e.request_id',
      'e.run_id',
    ])
    .where('e.id', '>', after)
    .where('f.event_id', 'is', null)
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

export interface FanoutTarget {
  id: number;
  alert_type: string;
  filter_value: string | null;
  start_event_id: number;
  plan: string;
  trial_ends_at: string | null;
}

/** Receiving subscriptions of unrevoked keys for these event types, with their account's plan. */
export async function fanoutTargets(db: Kysely<Database>, types: readonly string[]): Promise<FanoutTarget[]> {
  if (types.length === 0) return [];
  return db
    .selectFrom('webhook_subscriptions as s')
    .innerJoin('api_keys as k', 'k.id', 's.key_id')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select(['s.id', 's.alert_type', 's.filter_value', 's.start_event_id', 'a.plan', 'a.trial_ends_at'])
    .where('s.alert_type', 'in', [...types])
    .where('s.status', 'in', [...RECEIVING])
    .where('s.deleted_at', 'is', null)
    .where('k.revoked_at', 'is', null)
    .execute();
}

export async function insertDeliveries(db: Kysely<Database>, rows: readonly NewDelivery[]): Promise<void> {
  for (const part of chunk(rows, rowsPerInsert(12))) {
    await db
      .insertInto('webhook_deliveries')
      .values(part)
      .onConflict((oc) => oc.columns(['event_id', 'subscription_id']).doNothing())
      .execute();
  }
}

export async function markFannedOut(db: Kysely<Database>, eventIds: readonly number[], now: string) {
  for (const part of chunk(eventIds, rowsPerInsert(2))) {
    await db
      .insertInto('webhook_fanout')
      .values(part.map((event_id) => ({ event_id, fanned_at: now })))
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  }
}

/**
 * Moves the watermark past events that are settled: fanned out (or below the floor, where nobody
 * can receive them) and stored before `settledBefore`. The grace period covers writers whose
 * transaction holds a lower event id that is not visible yet: PostgreSQL commits out of id order.
 */
export async function advanceFanoutWatermark(
  db: Kysely<Database>,
  watermark: number,
  floor: number,
  settledBefore: string,
  now: string,
): Promise<number> {
  const firstUnfanned = await db
    .selectFrom('events as e')
    .leftJoin('webhook_fanout as f', 'f.event_id', 'e.id')
    .select((eb) => eb.fn.min('e.id').as('id'))
    .where('e.id', '>', Math.max(watermark, floor))
    .where('f.event_id', 'is', null)
    .executeTakeFirst();
  let settled = db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('id', '>', watermark)
    .where('created_at', '<=', settledBefore);
  if (firstUnfanned?.id !== null && firstUnfanned?.id !== undefined)
    settled = settled.where('id', '<', Number(firstUnfanned.id));
  const target = await settled.executeTakeFirst();
  if (target?.id === null || target?.id === undefined) return watermark;
  const next = Number(target.id);
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('webhook_worker_state')
      .values({ name: WATERMARK, value: 0, updated_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    // Compare-and-set: two workers may race; the one that read the current value wins.
    const moved = await trx
      .updateTable('webhook_worker_state')
      .set({ value: next, updated_at: now })
      .where('name', '=', WATERMARK)
      .where('value', '=', watermark)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) > 0)
      await trx.deleteFrom('webhook_fanout').where('event_id', '<=', next).execute();
  });
  return next;
}
