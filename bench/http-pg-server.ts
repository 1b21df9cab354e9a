// One PostgreSQL benchmark server, alone in its process (bench/http-pg.ts starts them):
//   dcledger <url>     the real app on PostgreSQL (auth, rate limit, validation, charge, request log, gating);
//   floor-rows <url>   plain Fastify + pg: rows of the Trade fields -> JSON.stringify;
//   floor-json <url>   the same query, the JSON built by PostgreSQL (json_agg of the rows: json_build_object takes at most 100 arguments, 50 fields).
// The floors answer GET /trades?limit=&days=&chamber= with the same fields and rows as dcledger,
// without keys, metering or validation: the plainest fast code over the same database, one
// prepared statement per query shape, a pool of 10 connections as dcledger's.
import Fastify from 'fastify';
import pg from 'pg';
import { TradeSchema } from '../src/resources/trade.js';
import { openStore } from '../src/storage/database.js';
import { FIXTURE_NOW } from '../src/test-support/real-data.js';

async function dcledger(url: string) {
  // Imported here: the floors' processes do not load the app.
  const { buildApp } = await import('../src/app.js');
  const store = openStore({ kind: 'postgres', url });
  // The default in-process rate-limit store: the bench account has a custom per-minute limit
  // (`dcledger accounts limit`) high enough for the load generator.
  const app = await buildApp({ db: store.db, dialect: store.dialect, clock: () => FIXTURE_NOW });
  return {
    app,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

/**
 * SQL of the fields the Trade resource has beyond the stored columns (as src/resources/trade.ts
 * computes them), and of a stored column that is not yet its JSON: `quality_flags` is a comma list
 * (null: none), served as an array.
 */
const COMPUTED: Record<string, string> = {
  chamber: "case t.source when 'senate_efd' then 'Senate' when 'oge' then 'Executive' else 'House' end",
  days_held: 'greatest(0, ($3::date - t.transaction_date::date))',
  quality_flags: "coalesce(to_json(string_to_array(t.quality_flags, ',')), '[]'::json)",
};
/** Trade fields stored on politicians and filings under another name. */
const JOINED: Record<string, string> = {
  politician_name: 'p.name',
  politician_slug: 'p.slug',
  bioguide_id: 'p.bioguide_id',
  party: 'p.party',
  party_name: 'p.party_name',
  state: 'p.state',
  filing_url: 'f.url',
};

/** Every field of the Trade resource, in its order, as an SQL expression over trades t, politicians p, filings f. */
const FLOOR_FIELDS: [string, string][] = Object.keys(TradeSchema.properties).map((name) => [
  name,
  COMPUTED[name] ?? JOINED[name] ?? `t.${name}`,
]);

const SOURCES: Record<string, string> = { house: 'house_clerk', senate: 'senate_efd', executive: 'oge' };

function tradeSql(select: string, chamber: boolean): string {
  return `select ${select} from trades t join politicians p on p.id = t.politician_id left join filings f on f.id = t.filing_id
    where t.superseded_by is null and t.disclosure_date >= $1 and t.disclosure_date <= $2${chamber ? ' and t.source = $5' : ''}
    order by t.disclosure_date desc, t.id desc limit $4`;
}

async function floor(url: string, json: boolean) {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const columns = FLOOR_FIELDS.map(([name, expression]) => `${expression} as ${name}`).join(', ');
  const text = (chamber: boolean) =>
    json
      ? `select coalesce(json_agg(r), '[]')::text as json from (${tradeSql(columns, chamber)}) r`
      : tradeSql(columns, chamber);
  // Named statements: each connection prepares a shape once and reuses it.
  const statements = {
    all: { name: `trades-${json}-all`, text: text(false) },
    chamber: { name: `trades-${json}-chamber`, text: text(true) },
  };
  const today = FIXTURE_NOW.toISOString().slice(0, 10);
  const app = Fastify({ logger: false });
  app.get('/trades', async (request, reply) => {
    const query = request.query as { limit?: string; days?: string; chamber?: string };
    const days = Number(query.days ?? 30);
    const from = new Date(FIXTURE_NOW.getTime() - days * 86_400_000).toISOString().slice(0, 10);
    const source = query.chamber ? SOURCES[query.chamber] : undefined;
    // $3 (today) is used by days_held; every shape binds the same first four values.
    const values: unknown[] = [from, today, today, Number(query.limit ?? 25)];
    if (source) values.push(source);
    const statement = source ? statements.chamber : statements.all;
    const result = await pool.query({ ...statement, values });
    reply.type('application/json; charset=utf-8');
    return json ? (result.rows[0] as { json: string }).json : JSON.stringify(result.rows);
  });
  return {
    app,
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}

const [mode, url] = process.argv.slice(2);
if (!url || !mode) throw new Error('usage: http-pg-server.ts dcledger|floor-rows|floor-json <postgres-url>');
const server = mode === 'dcledger' ? await dcledger(url) : await floor(url, mode === 'floor-json');
await server.app.listen({ port: 0, host: '127.0.0.1' });
const address = server.app.server.address() as { port: number };
process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
