// What SQLite's planner does with the statements a repository function runs: the tests that say
// which index a hot read uses capture its compiled SQL and ask SQLite to explain it.
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';

/** SQLite's plan (EXPLAIN QUERY PLAN details) of the last statement `work` runs through its database. */
export async function sqlitePlanOf(
  db: Kysely<Database>,
  work: (db: Kysely<Database>) => Promise<unknown>,
): Promise<string[]> {
  const executor = db.getExecutor();
  let captured: CompiledQuery | undefined;
  const capturing = db.withPlugin({
    transformQuery(args) {
      captured = executor.compileQuery(args.node, args.queryId);
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  await work(capturing);
  if (!captured) throw new Error('no statement captured');
  const plan = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${captured.sql}`, [...captured.parameters]),
  );
  return plan.rows.map((row) => row.detail);
}
