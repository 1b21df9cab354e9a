// SQLite: the charges asked for in one turn of the event loop, taken in one transaction (group
// commit), each as its own savepoint, on the synchronous hot path (sqlite-hot-path.ts).
import type BetterSqlite3 from 'better-sqlite3';
import { SQLITE_BUSY_TIMEOUT_MS } from '../database.js';
import { preparedQuery, type SqliteStoreDatabase, syncSqliteOf } from '../sqlite-hot-path.js';
import { chargeAsynchronously } from './one-charge.js';
import {
  CHARGE_PARAMS,
  type ChargeOutcome,
  type ChargeQueue,
  ChargeRefused,
  type ChargeSettled,
  type ChargeStep,
  type ChargeValues,
  chargeQueries,
  type WaitingCharge,
} from './statements.js';

type ChargeTransaction = BetterSqlite3.Transaction<
  (values: ChargeValues, withUsage: boolean) => ChargeOutcome
>;

type GroupTransaction = BetterSqlite3.Transaction<(group: WaitingCharge[]) => ChargeSettled[]>;

/** The same charge, the same statements, as one synchronous transaction on SQLite. */
function chargeTransaction(db: SqliteStoreDatabase): ChargeTransaction {
  const step = (name: ChargeStep) =>
    preparedQuery<(typeof CHARGE_PARAMS)[number]>(db, `accounts.charge.${name}`, (param) =>
      chargeQueries[name](
        db,
        Object.fromEntries(CHARGE_PARAMS.map((key) => [key, param(key)])) as unknown as ChargeValues,
      ),
    );
  const keySpend = step('keySpend');
  const keyState = step('keyState');
  const accountDebit = step('accountDebit');
  const ledgerRow = step('ledgerRow');
  const usageRow = step('usageRow');
  return db.sqlite.transaction((v: ChargeValues, logUsage: boolean): ChargeOutcome => {
    const key = keySpend.get(v) as { spent_today: number } | undefined;
    if (!key) {
      const exists = keyState.get(v) as { revoked_at: string | null } | undefined;
      throw new ChargeRefused(exists && exists.revoked_at === null ? 'daily_cap' : 'revoked');
    }
    const account = accountDebit.get(v) as { allowance: number; credits: number } | undefined;
    if (!account) throw new ChargeRefused('balance');
    if (v.cost > 0) ledgerRow.run(v);
    if (logUsage) usageRow.run(v);
    return {
      ok: true,
      allowance: account.allowance,
      credits: account.credits,
      spentToday: key.spent_today,
    };
  });
}

/** One transaction over a group of charges, each charge nested in it as its own savepoint. */
function groupTransaction(db: SqliteStoreDatabase): GroupTransaction {
  const charge = chargeTransaction(db);
  return db.sqlite.transaction((group: WaitingCharge[]) =>
    group.map((waiting): ChargeSettled => {
      try {
        return { charged: charge(waiting.values, waiting.withUsage) };
      } catch (error) {
        if (error instanceof ChargeRefused) return { charged: { ok: false, reason: error.reason } };
        return { failed: error };
      }
    }),
  );
}

interface ChargeGroup {
  charges: WaitingCharge[];
  /** When its first charge was asked for (performance.now()). */
  since: number;
  /** The next try at the write lock, while another connection holds it. */
  retry?: NodeJS.Timeout;
}

/**
 * How long a group waits before trying again for the write lock another connection holds (another
 * process's `dcledger ingest`, the search warm-up's process), and how long in all before it fails
 * as a busy timeout would. SQLite keeps no queue of writers: a try succeeds only while the lock is
 * free, and the warm-up's process leaves it free WRITE_LOCK_GAP_MS at a time (database.ts): a
 * try every millisecond (a timer's least) finds one of those gaps.
 */
const LOCK_RETRY_MS = 1;
const LOCK_GIVE_UP_MS = SQLITE_BUSY_TIMEOUT_MS;

/**
 * How long a group may keep its first charge waiting before the next charge commits it at once.
 * Measured (BENCHMARKS.md's notes): without it, ten 1000-row answers waited together for one
 * commit and the server's peak RSS went from ~185 to ~400 MB.
 */
const GROUP_WAIT_MS = 2;

/**
 * SQLite: group commit. The charges asked for while the event loop handles one batch of I/O are
 * taken together, in one IMMEDIATE transaction run when that batch is done (`setImmediate`), each
 * charge inside it as its own savepoint. Each charge still decides on the rows as the charges
 * before it left them (the same statements, in the order they were asked for), so the guarantees
 * hold: exact under concurrent calls, no overdraft, and a refused or failed charge rolls back to
 * its savepoint without touching the others. What the group saves is the commit: on a loaded
 * server most of a lone charge's cost was writing the same account, key and log pages to the WAL
 * again for every call (and its checkpoints), measured in BENCHMARKS.md's notes. A caller hears
 * its outcome only after the commit, so no answer is sent for a charge that a crash could lose.
 *
 * One per SQLite store, carried by its Kysely instance (store-database.ts): the group waiting for
 * its commit and the transaction prepared on the handle are that connection's.
 */
export class SqliteChargeGroups implements ChargeQueue {
  /** The group waiting for its commit; none between groups. */
  private waiting: ChargeGroup | undefined;
  /** Prepared on the handle by the first group that commits. */
  private prepared: GroupTransaction | undefined;

  constructor(private readonly db: SqliteStoreDatabase) {}

  take(values: ChargeValues, withUsage: boolean): Promise<ChargeOutcome> {
    // A transaction is open on the one connection (see commit): the charge takes the async path.
    if (!syncSqliteOf(this.db)) return chargeAsynchronously(this.db, values, withUsage);
    return new Promise((resolve, reject) => {
      let group = this.waiting;
      if (!group) {
        const started: ChargeGroup = { charges: [], since: performance.now() };
        group = started;
        this.waiting = started;
        setImmediate(() => this.commit(started));
      }
      group.charges.push({
        values,
        withUsage,
        settle: (outcome) => ('charged' in outcome ? resolve(outcome.charged) : reject(outcome.failed)),
      });
      // A group that has waited through heavy work (a 1000-row page takes milliseconds) commits
      // now: its callers hold their finished answers until it does, and the memory with them.
      if (performance.now() - group.since > GROUP_WAIT_MS) this.commit(group);
    });
  }

  private commit(group: ChargeGroup): void {
    if (this.waiting !== group) return; // committed already
    this.waiting = undefined;
    if (group.retry) clearTimeout(group.retry);
    group.retry = undefined;
    if (!syncSqliteOf(this.db)) {
      // An async Kysely transaction holds the one connection between two of its statements: a
      // statement run now would join it, so each charge takes the async path and waits its turn.
      for (const charge of group.charges) {
        chargeAsynchronously(this.db, charge.values, charge.withUsage).then(
          (charged) => charge.settle({ charged }),
          (failed: unknown) => charge.settle({ failed }),
        );
      }
      return;
    }
    let outcomes: ChargeSettled[];
    try {
      this.prepared ??= groupTransaction(this.db);
      const transaction = this.prepared;
      outcomes = withoutBusyWait(this.db.sqlite, () => transaction.immediate(group.charges));
    } catch (failed) {
      if (isBusy(failed) && performance.now() - group.since < LOCK_GIVE_UP_MS) {
        // Another connection holds the write lock: SQLite's busy timeout would wait for it with
        // this thread asleep, every request of the server waiting behind one charge. The group
        // waits on a timer instead (charges asked for meanwhile join it) and nothing of it was
        // written: the transaction did not begin.
        this.waiting = group;
        group.retry = setTimeout(() => this.commit(group), LOCK_RETRY_MS);
        return;
      }
      // The commit itself failed (e.g. the database stayed locked past its busy timeout): nothing
      // of the group was written.
      for (const waiting of group.charges) waiting.settle({ failed });
      return;
    }
    group.charges.forEach((waiting, index) => {
      const outcome = outcomes[index];
      waiting.settle(outcome ?? { failed: new Error('charge group lost an outcome') });
    });
  }
}

/** Runs `work` with the connection's busy timeout off, so a held write lock fails it at once. */
function withoutBusyWait<T>(sqlite: BetterSqlite3.Database, work: () => T): T {
  const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma('busy_timeout = 0');
  try {
    return work();
  } finally {
    sqlite.pragma(`busy_timeout = ${timeout}`);
  }
}

function isBusy(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
}
