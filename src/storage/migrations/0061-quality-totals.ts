// politician_trade_totals counts only the trades statistics count: current and not left out by a
// quality flag (storage/repositories/quality.ts, countableTrade; docs/data-quality.md). Migration
// 0021 counted every current trade; this one recreates the triggers with quality_excluded in
// their condition and refills the table, so a flag set or cleared later moves the totals too.
import { type Kysely, sql } from 'kysely';
import {
  createTradeTotalsTriggers,
  dropTradeTotalsTriggers,
  type TradeTotalsScope,
} from '../ddl-trade-counts.js';

async function recreate(db: Kysely<unknown>, scope: TradeTotalsScope): Promise<void> {
  await dropTradeTotalsTriggers(db);
  await sql`delete from politician_trade_totals`.execute(db);
  await createTradeTotalsTriggers(db, scope);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await recreate(db, 'countable');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await recreate(db, 'current');
}
