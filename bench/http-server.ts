// One floor server, alone in its process (dcledger itself runs from its build:
// bench/http-server-built.mjs):
//   floor-rows <db>   plain Fastify + better-sqlite3: rows of the Trade fields -> JSON.stringify;
//   floor-json <db>   the same query, the JSON built by SQLite (json_group_array(json_object(...))).
// The floors answer GET /trades?limit=&days=&chamber= with the same fields and rows as dcledger,
// without keys, metering or validation: the plainest fast code over the same file.
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import { CHAMBER_OF_SOURCE, SOURCE_OF_CHAMBER_FILTER } from '../src/domain/sources.js';
import { TradeSchema } from '../src/resources/trade.js';
import { FIXTURE_NOW } from '../src/test-support/real-data.js';

/**
 * Where a Trade field comes from when it is not the trades column of the same name: the member's
 * and filing's columns, and the two the resource computes (`chamber`, `days_held`).
 */
const FIELD_SQL: Record<string, string> = {
  politician_name: 'p.name',
  politician_slug: 'p.slug',
  bioguide_id: 'p.bioguide_id',
  party: 'p.party',
  party_name: 'p.party_name',
  state: 'p.state',
  filing_url: 'f.url',
  chamber: `case t.source ${Object.entries(CHAMBER_OF_SOURCE)
    .map(([source, chamber]) => `when '${source}' then '${chamber}'`)
    .join(' ')} else 'House' end`,
  days_held: 'max(0, cast(round(julianday(:today) - julianday(t.transaction_date)) as integer))',
};

/**
 * The fields of the Trade resource, in its order (read from its one schema, so a field added to
 * the resource is in the floors too), as SQL expressions over trades t, politicians p, filings f.
 */
const FIELDS: [string, string][] = Object.keys(TradeSchema.properties).map((name) => [
  name,
  FIELD_SQL[name] ?? `t.${name}`,
]);

const SOURCES: Record<string, string> = SOURCE_OF_CHAMBER_FILTER;

/**
 * Two stored columns are not yet their JSON: `cap_gains_over_200` is 1/0 (SQLite has no boolean)
 * and `quality_flags` a comma list (null: none). The rows floor turns them in JavaScript, the JSON
 * floor in SQL, as dcledger's own query does.
 */
interface StoredRow {
  cap_gains_over_200: number | null;
  quality_flags: string | null;
}

function rowAsJson(row: StoredRow): Record<string, unknown> {
  return {
    ...row,
    cap_gains_over_200: row.cap_gains_over_200 === null ? null : row.cap_gains_over_200 === 1,
    quality_flags: row.quality_flags === null ? [] : row.quality_flags.split(','),
  };
}

const JSON_OF_STORED: Record<string, string> = {
  cap_gains_over_200: `case cap_gains_over_200 when 1 then json('true') when 0 then json('false') end`,
  quality_flags: `case when quality_flags is null then json('[]') else json('["' || replace(quality_flags, ',', '","') || '"]') end`,
};

function tradeSql(select: string, chamber: boolean): string {
  return `select ${select} from trades t join politicians p on p.id = t.politician_id left join filings f on f.id = t.filing_id
    where t.superseded_by is null and t.disclosure_date >= :from and t.disclosure_date <= :to${chamber ? ' and t.source = :source' : ''}
    order by t.disclosure_date desc, t.id desc limit :limit`;
}

async function floor(file: string, json: boolean) {
  const sqlite = new BetterSqlite3(file, { readonly: true });
  const columns = FIELDS.map(([name, expression]) => `${expression} as ${name}`).join(', ');
  const object = `json_object(${FIELDS.map(([name]) => `'${name}', ${JSON_OF_STORED[name] ?? name}`).join(', ')})`;
  // One statement per query shape, prepared once.
  const prepare = (chamber: boolean) =>
    json
      ? sqlite
          .prepare(`select coalesce(json_group_array(${object}), '[]') from (${tradeSql(columns, chamber)})`)
          .pluck()
      : sqlite.prepare(tradeSql(columns, chamber));
  const statements = { all: prepare(false), chamber: prepare(true) };
  const today = FIXTURE_NOW.toISOString().slice(0, 10);
  const app = Fastify({ logger: false });
  app.get('/trades', async (request, reply) => {
    const query = request.query as { limit?: string; days?: string; chamber?: string };
    const days = Number(query.days ?? 30);
    const from = new Date(FIXTURE_NOW.getTime() - days * 86_400_000).toISOString().slice(0, 10);
    const source = query.chamber ? SOURCES[query.chamber] : undefined;
    const parameters = {
      from,
      to: today,
      today,
      limit: Number(query.limit ?? 25),
      ...(source ? { source } : {}),
    };
    const statement = source ? statements.chamber : statements.all;
    reply.type('application/json; charset=utf-8');
    return json
      ? (statement.get(parameters) as string)
      : JSON.stringify((statement.all(parameters) as StoredRow[]).map(rowAsJson));
  });
  return {
    app,
    close: async () => {
      await app.close();
      sqlite.close();
    },
  };
}

const [mode, file] = process.argv.slice(2);
if (!file || (mode !== 'floor-rows' && mode !== 'floor-json'))
  throw new Error('usage: http-server.ts floor-rows|floor-json <db>');
const server = await floor(file, mode === 'floor-json');
await server.app.listen({ port: 0, host: '127.0.0.1' });
const address = server.app.server.address() as { port: number };
process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
