// How current the prices are, for /status: the daily price job's latest run, how it ended, what
// each provider last failed with, and the newest close the service holds. When every provider
// failed, nothing is fetched and the cached closes are served (no API call waits on a provider).
import type { Kysely } from 'kysely';
import { BENCHMARK_SYMBOL } from '../market/benchmark.js';
import { latestPriceRuns, newestCloseOf } from '../storage/repositories/price-refresh.js';
import type { Database } from '../storage/schema.js';

export interface PriceProviderStatus {
  name: string;
  asked: number;
  answered: number;
  failed: number;
  gaveUp: boolean;
  lastError: string | null;
}

export interface PriceStatus {
  /** The benchmark's newest close: the day returns and positions are current to. */
  newestClose: string | null;
  lastRun: {
    id: number;
    requestedBy: string;
    startedAt: string;
    finishedAt: string | null;
    /** running | completed | partial | failed | aborted */
    status: string;
    symbolsAsked: number;
    symbolsUpdated: number;
    symbolsFailed: number;
    error: string | null;
    providers: PriceProviderStatus[];
  } | null;
  /** When the latest run's providers all failed: since when prices have not moved on. */
  failingSince: string | null;
}

export async function priceStatus(db: Kysely<Database>): Promise<PriceStatus> {
  const [runs, newestClose] = await Promise.all([
    latestPriceRuns(db, 20),
    newestCloseOf(db, BENCHMARK_SYMBOL),
  ]);
  const last = runs[0];
  if (!last) return { newestClose, lastRun: null, failingSince: null };
  let failingSince: string | null = null;
  for (const run of runs) {
    if (run.status !== 'failed') break;
    failingSince = run.started_at;
  }
  return {
    newestClose,
    lastRun: {
      id: last.id,
      requestedBy: last.requested_by,
      startedAt: last.started_at,
      finishedAt: last.finished_at,
      status: last.status,
      symbolsAsked: last.symbols_asked,
      symbolsUpdated: last.symbols_updated,
      symbolsFailed: last.symbols_failed,
      error: last.error,
      providers: providersOf(last.providers),
    },
    failingSince,
  };
}

function providersOf(json: string | null): PriceProviderStatus[] {
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null) return [];
  return Object.entries(parsed as Record<string, Record<string, unknown>>).map(([name, summary]) => ({
    name,
    asked: Number(summary.asked ?? 0),
    answered: Number(summary.answered ?? 0),
    failed: Number(summary.failed ?? 0),
    gaveUp: summary.gaveUp === true,
    lastError: typeof summary.lastError === 'string' ? summary.lastError : null,
  }));
}
