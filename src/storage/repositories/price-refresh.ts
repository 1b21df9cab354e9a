// Reads and writes of the daily price job: which symbols it looks after, and its runs.
import type { Kysely, Selectable } from 'kysely';
import type { PriceRefreshRunsTable } from '../schema/market.js';
import type { Database } from '../schema.js';

export interface RefreshCandidate {
  symbol: string;
  /** The earliest transaction date of the symbol's trades (where a first fetch starts), or null. */
  firstTradeDate: string | null;
  /** It has a trade whose transaction or disclosure date is on or after `recentFrom`. */
  recent: boolean;
  /** A reconstructed portfolio still holds it. */
  held: boolean;
}

/** Every symbol that live trades are priced by, and every symbol an open holding is valued by. */
export async function refreshCandidates(
  db: Kysely<Database>,
  options: { recentFrom: string },
): Promise<RefreshCandidate[]> {
  const [traded, held] = await Promise.all([
    db
      .selectFrom('trades')
      .select((eb) => [
        'market_symbol',
        eb.fn.min('transaction_date').as('first_date'),
        eb.fn.max('transaction_date').as('last_date'),
        eb.fn.max('disclosure_date').as('last_disclosure'),
      ])
      .where('superseded_by', 'is', null)
      .where('market_symbol', 'is not', null)
      .groupBy('market_symbol')
      .execute(),
    db
      .selectFrom('portfolio_holdings')
      .select('market_symbol')
      .distinct()
      .where('status', '=', 'open')
      .where('market_symbol', 'is not', null)
      .execute(),
  ]);
  const candidates = new Map<string, RefreshCandidate>();
  for (const row of traded) {
    if (row.market_symbol === null) continue;
    candidates.set(row.market_symbol, {
      symbol: row.market_symbol,
      firstTradeDate: row.first_date,
      recent:
        (row.last_date !== null && row.last_date >= options.recentFrom) ||
        (row.last_disclosure !== null && row.last_disclosure >= options.recentFrom),
      held: false,
    });
  }
  for (const row of held) {
    if (row.market_symbol === null) continue;
    const known = candidates.get(row.market_symbol);
    if (known) known.held = true;
    else
      candidates.set(row.market_symbol, {
        symbol: row.market_symbol,
        firstTradeDate: null,
        recent: false,
        held: true,
      });
  }
  return [...candidates.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

/** Symbols of live trades with a window still empty only because prices do not reach its end. */
export async function symbolsAwaitingPrices(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('trades')
    .select('market_symbol')
    .distinct()
    .where('superseded_by', 'is', null)
    .where('awaiting_prices', '=', 1)
    .where('market_symbol', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.market_symbol === null ? [] : [row.market_symbol]));
}

/** The earliest transaction date of any live trade: where the benchmark's history must start. */
export async function firstTradeDate(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('trades')
    .select((eb) => eb.fn.min('transaction_date').as('first'))
    .where('superseded_by', 'is', null)
    .executeTakeFirst();
  return row?.first ?? null;
}

export type PriceRunRow = Selectable<PriceRefreshRunsTable>;

export async function startPriceRun(
  db: Kysely<Database>,
  run: { holder: string; requestedBy: string; now: string },
): Promise<number> {
  const row = await db
    .insertInto('price_refresh_runs')
    .values({ holder: run.holder, requested_by: run.requestedBy, started_at: run.now, status: 'running' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface PriceRunOutcome {
  status: 'completed' | 'partial' | 'failed' | 'aborted';
  finishedAt: string;
  symbolsAsked: number;
  symbolsUpdated: number;
  symbolsFailed: number;
  barsAdded: number;
  newestClose: string | null;
  /** JSON of the per-provider summary. */
  providers: string;
  error: string | null;
}

export async function finishPriceRun(
  db: Kysely<Database>,
  id: number,
  outcome: PriceRunOutcome,
): Promise<void> {
  await db
    .updateTable('price_refresh_runs')
    .set({
      status: outcome.status,
      finished_at: outcome.finishedAt,
      symbols_asked: outcome.symbolsAsked,
      symbols_updated: outcome.symbolsUpdated,
      symbols_failed: outcome.symbolsFailed,
      bars_added: outcome.barsAdded,
      newest_close: outcome.newestClose,
      providers: outcome.providers,
      error: outcome.error,
    })
    .where('id', '=', id)
    .execute();
}

/** The latest runs, newest first. */
export async function latestPriceRuns(db: Kysely<Database>, limit: number): Promise<PriceRunRow[]> {
  return db.selectFrom('price_refresh_runs').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** The newest run that fetched something (completed or partial): the last time prices moved on. */
export async function lastUsefulPriceRun(db: Kysely<Database>): Promise<PriceRunRow | undefined> {
  return db
    .selectFrom('price_refresh_runs')
    .selectAll()
    .where('status', 'in', ['completed', 'partial'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Runs started at or after `since`, newest first. */
export async function priceRunsSince(db: Kysely<Database>, since: string): Promise<PriceRunRow[]> {
  return db
    .selectFrom('price_refresh_runs')
    .selectAll()
    .where('started_at', '>=', since)
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Marks runs still `running` as aborted: called by the holder of the price job's lease, which no
 * other process can be running a job under, so such a row belongs to a process that died.
 */
export async function abandonPriceRuns(db: Kysely<Database>, now: string): Promise<number> {
  const result = await db
    .updateTable('price_refresh_runs')
    .set({ status: 'aborted', finished_at: now, error: 'the process running it stopped' })
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The newest close stored for `symbol` in any series (the benchmark's: the day prices are current to). */
export async function newestCloseOf(db: Kysely<Database>, symbol: string): Promise<string | null> {
  const row = await db
    .selectFrom('price_series')
    .select((eb) => eb.fn.max('last_date').as('last'))
    .where('symbol', '=', symbol)
    .executeTakeFirst();
  return row?.last ?? null;
}
