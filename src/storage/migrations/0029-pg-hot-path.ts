// The PostgreSQL hot path of GET /trades: the JavaScript spelling of a real in JSON
// the database builds, as a PL/pgSQL function that the page query calls only for the rare rows
// PostgreSQL would write otherwise (dialect.ts, javascriptJsonNumberCall). Nothing on SQLite.
import type { Kysely } from 'kysely';
import { createJavascriptJsonNumberFunction, dropJavascriptJsonNumberFunction } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createJavascriptJsonNumberFunction(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropJavascriptJsonNumberFunction(db);
}
