// The delivery worker. It fans every outbox event out to the subscriptions it matches (one
// persisted delivery per event and subscription), then sends due deliveries with bounded
// concurrency. A delivery is owned through a lease in the database, never an in-memory queue: a
// worker that dies mid-batch leaves leases that expire, and any worker then takes them over.
//
// A claimed delivery takes one of the `concurrency` slots from its claim until its outcome is
// written (not only while it is on the wire), and the worker renews the leases of everything it
// holds every third of the lease time. So nothing this worker holds outlives its lease while the
// worker is alive, however slow the receiver or the outcome writes: another worker re-sends only
// what a dead (or stalled past its lease) worker held.
//
// Slots are shared fairly: one subscription, and one receiver host (host and port), may hold only
// a few of them at once. A receiver that hangs or trickles its answers then delays its own
// deliveries, never everyone else's (the caps are per worker; several workers multiply them).
import { randomUUID } from 'node:crypto';
import {
  claimDueDeliveries,
  type DeliveryRow,
  eventsByIds,
  releaseDeliveries,
  renewDeliveryLeases,
} from '../storage/repositories/webhook-deliveries.js';
import {
  advanceFanoutWatermark,
  fanoutFloor,
  fanoutTargets,
  fanoutWatermark,
  insertDeliveries,
  markFannedOut,
  unfannedEvents,
} from '../storage/repositories/webhook-fanout.js';
import {
  disableSubscription,
  longFailingSubscriptions,
  type SubscriptionRow,
  subscriptionsByIds,
} from '../storage/repositories/webhook-subscriptions.js';
import { inTransaction } from '../storage/transaction.js';
import { deliveriesFor, reachesWebhooks } from './fanout.js';
import { deliveryLogger, FAILING_TOO_LONG, outcomeOf, type Unrecorded, writeOutcomes } from './outcomes.js';
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS } from './retry.js';
import { sendSigned } from './runtime.js';
import type { SendResult } from './sender.js';
import { defaultFairnessCaps, type WorkerOptions, type WorkReport } from './worker-options.js';

/** Writers hold an event id invisible until they commit; a watermark never passes fresher events. */
const SETTLE_GRACE_MS = 60 * 60 * 1000;
/** How often the long-failing check runs in the background loop. */
const MAINTENANCE_EVERY_MS = 60 * 1000;

/** Outcomes written per transaction, and how long the first of a batch may wait for company. */
const RECORD_BATCH = 64;
const RECORD_DELAY_MS = 10;

/** A sent delivery: whether the receiver took it, and the write of its outcome. */
interface Sent {
  ok: boolean;
  recorded: Promise<void>;
}

/** A delivery this worker claimed and has not recorded yet: its lease token and its end. */
interface Held {
  token: string;
  /** When the lease ends as last written (ms since the epoch, on the worker's clock). */
  expiresAt: number;
  subscriptionId: number;
  host: string;
}

/** Deliveries claimed in one go, with the subscriptions they go to. */
interface Claimed {
  deliveries: DeliveryRow[];
  subscriptions: Map<number, SubscriptionRow>;
}

export class DeliveryWorker {
  readonly id = randomUUID();
  private running = false;
  private abandoned = false;
  private loop: Promise<void> | undefined;
  /** Sends under way with their outcome writes: one slot each until the outcome is stored. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Every delivery claimed and not yet recorded, by id: the leases to keep alive. */
  private readonly held = new Map<number, Held>();
  private renewTimer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private lastMaintenance = 0;
  private readonly random: () => number;
  private readonly fanoutBatch: number;
  private readonly perSubscription: number;
  private readonly perHost: number;
  /** Held deliveries per subscription and per receiver host, for the fairness caps. */
  private readonly heldBySubscription = new Map<number, number>();
  private readonly heldByHost = new Map<string, number>();
  /** The receiver host of every subscription seen (a subscription's URL is fixed once created). */
  private readonly hostOfSubscription = new Map<number, string>();
  private unrecorded: Unrecorded[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly options: WorkerOptions) {
    this.random = options.random ?? Math.random;
    this.fanoutBatch = options.fanoutBatch ?? 500;
    const defaults = defaultFairnessCaps(options.concurrency);
    this.perSubscription = Math.max(1, options.perSubscription ?? defaults.perSubscription);
    this.perHost = Math.max(1, options.perHost ?? defaults.perHost);
  }

  /** Runs in the background until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.options.log.info(
      {
        worker: this.id,
        concurrency: this.options.concurrency,
        secrets_encrypted: this.options.runtime.secrets.encrypts,
      },
      'webhook worker started',
    );
    if (!this.options.runtime.secrets.encrypts) {
      this.options.log.warn(
        { worker: this.id },
        'DCLEDGER_WEBHOOK_SECRET_KEY is not set: webhook secrets are stored without encryption',
      );
    }
    this.keepLeases();
    this.loop = this.run();
  }

  /** Stops claiming, lets in-flight deliveries finish and records them. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.flush();
    this.stopRenewing();
    await this.renewing;
    this.options.log.info({ worker: this.id }, 'webhook worker stopped');
  }

  /**
   * Walks away like a crashed process: nothing it has in flight is recorded, its leases stay until
   * they expire. (For tests of recovery; a real crash needs no method.)
   */
  abandon(): void {
    this.running = false;
    this.abandoned = true;
    this.stopRenewing();
    this.wake?.();
  }

  /** How many deliveries this worker holds (claimed, not yet recorded): never above `concurrency`. */
  get holding(): number {
    return this.held.size;
  }

  /** Fans out everything pending and sends everything due now, then returns (tests, benchmarks). */
  async runOnce(): Promise<WorkReport> {
    const report: WorkReport = { fannedOut: 0, delivered: 0, failed: 0 };
    for (;;) {
      const fanned = await this.fanOut();
      report.fannedOut += fanned;
      if (fanned < this.fanoutBatch) break;
    }
    await this.disableLongFailing();
    const renewingHere = this.renewTimer === undefined;
    if (renewingHere) this.keepLeases();
    try {
      while (!this.abandoned) {
        const claimed = await this.claim(this.options.concurrency);
        if (claimed.deliveries.length === 0) break;
        const sent = await Promise.all((await this.prepare(claimed)).map((task) => task()));
        await Promise.all(sent.map((delivery) => delivery.recorded));
        for (const { ok } of sent) {
          if (ok) report.delivered += 1;
          else report.failed += 1;
        }
      }
    } finally {
      if (renewingHere) this.stopRenewing();
    }
    return report;
  }

  private async run(): Promise<void> {
    // A claim and a fan-out cost a few queries whatever their size, so both are batched: the outbox
    // is read at most once per poll interval (at once while it has a backlog), and deliveries are
    // claimed when half of the slots are free, not one slot at a time.
    const claimAtLeast = Math.max(1, Math.floor(this.options.concurrency / 2));
    let nextFanOut = 0;
    while (this.running) {
      try {
        if (Date.now() >= nextFanOut) {
          const fanned = await this.fanOut();
          nextFanOut = fanned >= this.fanoutBatch ? 0 : Date.now() + this.options.pollMs;
        }
        if (Date.now() - this.lastMaintenance >= MAINTENANCE_EVERY_MS) {
          this.lastMaintenance = Date.now();
          await this.disableLongFailing();
        }
        // A slot frees when an outcome is stored, not when the answer comes in: claiming for
        // answered-but-unwritten deliveries let a slow outcome write pile up leases that lapsed
        // before they were written, and the other worker sent those deliveries again.
        const free = this.options.concurrency - this.held.size;
        const claimed = free >= claimAtLeast ? await this.claim(free) : undefined;
        if (claimed) for (const task of await this.prepare(claimed)) this.launch(task);
        // All slots taken (or too few free to claim): more may be due, so go on as soon as one frees.
        const taken = claimed?.deliveries.length ?? 0;
        const busy = free < claimAtLeast || (taken > 0 && taken === free);
        await this.pause(this.options.pollMs, busy);
      } catch (error) {
        if (!this.running) break;
        this.options.log.error({ worker: this.id, err: error }, 'webhook worker step failed');
        await this.pause(this.options.pollMs, false);
      }
    }
  }

  /** Waits `ms`, or until stopped; with `untilSlot`, also until an in-flight delivery completes. */
  private pause(ms: number, untilSlot: boolean): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const slot = untilSlot && this.inFlight.size > 0 ? Promise.race([...this.inFlight]) : undefined;
      slot?.then(done, done);
      this.wake = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  /** Runs one send; its slot frees once its outcome is written (outcomes are written in batches). */
  private launch(send: () => Promise<Sent>): void {
    const task: Promise<void> = send().then(
      ({ recorded }) =>
        recorded.catch((error: unknown) => {
          // The lease lapses and the delivery is tried again by whichever worker claims it next.
          this.options.log.error({ worker: this.id, err: error }, 'recording webhook outcomes failed');
        }),
      (error: unknown) => {
        this.options.log.error({ worker: this.id, err: error }, 'sending a webhook delivery failed');
      },
    );
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }

  // ---- leases ----

  /** Renews the leases of everything held every third of the lease time, until stopRenewing(). */
  private keepLeases(): void {
    if (this.renewTimer) return;
    const every = Math.max(10, Math.floor(this.options.leaseMs / 3));
    this.renewTimer = setInterval(() => {
      // One renewal at a time: a slow one is not stacked on.
      this.renewing = this.renewing.then(() => this.renewLeases());
    }, every);
    this.renewTimer.unref();
  }

  private stopRenewing(): void {
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = undefined;
  }

  private async renewLeases(): Promise<void> {
    if (this.held.size === 0 || this.abandoned) return;
    const now = this.options.clock();
    const until = now.getTime() + this.options.leaseMs;
    const held = [...this.held].map(([id, { token }]) => ({ id, token }));
    try {
      const renewed = await renewDeliveryLeases(this.options.db, held, {
        now: now.toISOString(),
        leaseUntil: new Date(until).toISOString(),
      });
      for (const id of renewed) {
        const entry = this.held.get(id);
        if (entry) entry.expiresAt = until;
      }
    } catch (error) {
      // Leases not renewed lapse; what has not been sent by then is not sent by this worker.
      this.options.log.error({ worker: this.id, err: error }, 'renewing webhook delivery leases failed');
    }
  }

  /** Whether this worker still holds the delivery's lease now (it never sends one it may have lost). */
  private holds(delivery: DeliveryRow): boolean {
    const entry = this.held.get(delivery.id);
    return entry !== undefined && this.options.clock().getTime() < entry.expiresAt;
  }

  // ---- fan-out ----

  /** One batch of events fanned out to their deliveries; returns how many events it handled. */
  private async fanOut(): Promise<number> {
    const { db } = this.options;
    const now = this.options.clock();
    const stamp = now.toISOString();
    const watermark = await fanoutWatermark(db);
    const floor = await fanoutFloor(db);
    const events = await unfannedEvents(db, Math.max(watermark, floor), this.fanoutBatch);
    if (events.length > 0) {
      const targets = (await fanoutTargets(db, [...new Set(events.map((event) => event.type))])).filter(
        (target) => reachesWebhooks(target, now),
      );
      const rows = deliveriesFor(events, targets, stamp);
      await inTransaction(db, async (trx) => {
        await insertDeliveries(trx, rows);
        await markFannedOut(
          trx,
          events.map((event) => event.id),
          stamp,
        );
      });
      if (rows.length > 0)
        this.options.log.debug(
          { worker: this.id, events: events.length, deliveries: rows.length },
          'fanned out',
        );
    }
    const settledBefore = new Date(now.getTime() - SETTLE_GRACE_MS).toISOString();
    await advanceFanoutWatermark(db, watermark, floor, settledBefore, stamp);
    return events.length;
  }

  // ---- delivery ----

  /**
   * Claims up to `limit` due deliveries within the fairness caps. Subscriptions at their cap (or
   * whose host is) are left out of the claim; what a claim brings beyond a cap (a subscription or
   * host met for the first time, or several of one subscription at once) is given back at once,
   * and the claim is repeated without them, so one busy subscriber never fills a claim.
   */
  private async claim(limit: number): Promise<Claimed> {
    const { db } = this.options;
    const kept: DeliveryRow[] = [];
    const subscriptions = new Map<number, SubscriptionRow>();
    for (let round = 0; round < 4 && kept.length < limit; round++) {
      const now = this.options.clock();
      const until = now.getTime() + this.options.leaseMs;
      const token = `${this.id}:${randomUUID()}`;
      const claimed = await claimDueDeliveries(db, {
        now: now.toISOString(),
        leaseUntil: new Date(until).toISOString(),
        token,
        limit: limit - kept.length,
        excludeSubscriptions: this.saturatedSubscriptions(),
      });
      if (claimed.length === 0) break;
      const unknown = [...new Set(claimed.map((delivery) => delivery.subscription_id))].filter(
        (id) => !subscriptions.has(id),
      );
      for (const row of await subscriptionsByIds(db, unknown)) {
        subscriptions.set(row.id, row);
        this.hostOfSubscription.set(row.id, receiverHost(row.webhook_url));
      }
      const over: number[] = [];
      for (const delivery of claimed) {
        const subscriptionId = delivery.subscription_id;
        const host = this.hostOfSubscription.get(subscriptionId) ?? '';
        if (
          (this.heldBySubscription.get(subscriptionId) ?? 0) >= this.perSubscription ||
          (this.heldByHost.get(host) ?? 0) >= this.perHost
        ) {
          over.push(delivery.id);
          continue;
        }
        this.held.set(delivery.id, { token, expiresAt: until, subscriptionId, host });
        this.heldBySubscription.set(subscriptionId, (this.heldBySubscription.get(subscriptionId) ?? 0) + 1);
        this.heldByHost.set(host, (this.heldByHost.get(host) ?? 0) + 1);
        kept.push(delivery);
      }
      if (over.length === 0) break;
      await releaseDeliveries(db, over, { token, now: now.toISOString() });
    }
    return { deliveries: kept, subscriptions };
  }

  /** Subscriptions at their cap, or whose receiver host is at its cap, as far as this worker knows. */
  private saturatedSubscriptions(): number[] {
    const saturated: number[] = [];
    for (const [id, count] of this.heldBySubscription) if (count >= this.perSubscription) saturated.push(id);
    const fullHosts = new Set<string>();
    for (const [host, count] of this.heldByHost) if (count >= this.perHost) fullHosts.add(host);
    if (fullHosts.size > 0)
      for (const [id, host] of this.hostOfSubscription)
        if (fullHosts.has(host) && (this.heldBySubscription.get(id) ?? 0) < this.perSubscription)
          saturated.push(id);
    return saturated;
  }

  /** A delivery is no longer held (its outcome is stored, or it was never going to be). */
  private forget(deliveryId: number): void {
    const entry = this.held.get(deliveryId);
    if (!entry) return;
    this.held.delete(deliveryId);
    decrement(this.heldBySubscription, entry.subscriptionId);
    decrement(this.heldByHost, entry.host);
  }

  /**
   * Loads what claimed deliveries need (events, subscriptions) in two queries and returns one task
   * per delivery that sends it, resolving to whether it succeeded and to when its outcome is stored.
   */
  private async prepare({ deliveries, subscriptions }: Claimed): Promise<(() => Promise<Sent>)[]> {
    const eventIds = deliveries.flatMap((delivery) =>
      delivery.event_id === null ? [] : [delivery.event_id],
    );
    const events = new Map((await eventsByIds(this.options.db, eventIds)).map((event) => [event.id, event]));
    return deliveries.map((delivery) => async () => {
      let sent: Sent = { ok: false, recorded: Promise.resolve() };
      try {
        if (!this.holds(delivery)) {
          // Stalled past its lease (the renewals could not run): another worker may own it now.
          deliveryLogger(this.options.log, delivery).warn(
            { worker: this.id, delivery: delivery.delivery_uid, subscription: delivery.subscription_id },
            'delivery lease lapsed before sending; left to whichever worker claims it',
          );
          return sent;
        }
        const event = delivery.event_id === null ? undefined : events.get(delivery.event_id);
        const subscription = subscriptions.get(delivery.subscription_id);
        const result: SendResult =
          event && subscription
            ? await sendSigned(this.options.runtime, {
                url: subscription.webhook_url,
                sealedSecret: subscription.secret,
                event: event.type,
                dataJson: event.data,
                deliveryUid: delivery.delivery_uid,
                now: this.options.clock(),
              })
            : {
                ok: false,
                statusCode: null,
                latencyMs: 0,
                retryAfter: undefined,
                error: 'the event is no longer in the outbox',
                blocked: false,
              };
        // A crashed worker records nothing: what it sent is sent again, under the same delivery id.
        if (this.abandoned) return sent;
        sent = { ok: result.ok, recorded: this.record(delivery, result, !event || !subscription) };
        return sent;
      } finally {
        // The lease is kept until the outcome is stored (or was never going to be).
        const release = () => this.forget(delivery.id);
        sent.recorded.then(release, release);
      }
    });
  }

  /**
   * Queues an attempt's outcome; outcomes are written in batches (one transaction for up to
   * RECORD_BATCH of them, at most RECORD_DELAY_MS after the first). Resolves once it is stored. An
   * outcome lost with its process is harmless: the lease lapses and the delivery is sent again
   * under the same id.
   */
  private record(delivery: DeliveryRow, result: SendResult, unsendable: boolean): Promise<void> {
    const now = this.options.clock();
    const { attempt, outcome, kind } = outcomeOf(delivery, result, unsendable, now, this.random);
    return new Promise((resolve, reject) => {
      this.unrecorded.push({ delivery, attempt, outcome, kind, now, resolve, reject });
      if (this.unrecorded.length >= RECORD_BATCH) void this.flush();
      else this.flushTimer ??= setTimeout(() => void this.flush(), RECORD_DELAY_MS);
    });
  }

  /** Writes every queued outcome; batches are written one after the other. */
  private flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.unrecorded.splice(0);
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing.then(() =>
      // One more try for a transient failure (a lost connection, a serialization or deadlock
      // abort): the whole transaction rolled back, and each write is conditional on the lease.
      this.writeOutcomes(batch)
        .catch((error: unknown) => {
          this.options.log.warn(
            { worker: this.id, err: error, outcomes: batch.length },
            'writing webhook outcomes failed; trying once more',
          );
          return this.writeOutcomes(batch);
        })
        .then(
          () => {
            for (const item of batch) item.resolve();
          },
          (error: unknown) => {
            for (const item of batch) item.reject(error);
          },
        ),
    );
    return this.flushing;
  }

  private async writeOutcomes(batch: readonly Unrecorded[]): Promise<void> {
    const lost = await writeOutcomes(this.options.db, batch);
    for (const item of batch) this.logOutcome(item, lost.includes(item));
  }

  private logOutcome(item: Unrecorded, lost: boolean): void {
    const { delivery, attempt, outcome, kind } = item;
    const log = deliveryLogger(this.options.log, delivery);
    const fields = {
      worker: this.id,
      delivery: delivery.delivery_uid,
      subscription: delivery.subscription_id,
      event: delivery.event_type,
      attempt,
      status_code: outcome.statusCode,
      latency_ms: outcome.latencyMs,
    };
    if (lost) log.warn(fields, 'delivery lease lost before its outcome was recorded; another worker owns it');
    else if (kind === 'delivered') log.debug(fields, 'webhook delivered');
    else if (kind === 'gone') log.warn(fields, 'webhook receiver answered 410: subscription disabled');
    else
      log.info(
        {
          ...fields,
          error: outcome.error,
          next_attempt_at: outcome.nextAttemptAt,
          gave_up: outcome.status === 'failed' && attempt >= MAX_ATTEMPTS,
        },
        'webhook delivery failed',
      );
  }

  /** Subscriptions failing for 5 days are disabled even when nothing is left to retry. */
  private async disableLongFailing(): Promise<void> {
    const now = this.options.clock();
    const cutoff = new Date(now.getTime() - DISABLE_AFTER_FAILING_MS).toISOString();
    for (const id of await longFailingSubscriptions(this.options.db, cutoff)) {
      await inTransaction(this.options.db, (trx) =>
        disableSubscription(trx, id, FAILING_TOO_LONG, now.toISOString()),
      );
      this.options.log.warn(
        { worker: this.id, subscription: id },
        'webhook subscription disabled after 5 days of failures',
      );
    }
  }
}

/** What the per-host cap counts by: the URL's host and port (`127.0.0.1:8080`, `hooks.example.org`). */
function receiverHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

function decrement<K>(counts: Map<K, number>, key: K): void {
  const count = (counts.get(key) ?? 0) - 1;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}
