// One benchmark server, alone in its process:
//   dcledger <db>     the real app (auth, rate limit, validation, charge, request log, gating);
//   floor-rows <db>   plain Fastify + better-sqlite3: rows of the 50 Trade fields -> JSON.stringify;
//   floor-json <db>   the same query, the JSON built by SQLite (json_group_array(json_object(...))).
// The floors answer GET /trades?limit=&days=&chamber= with the same fields and rows as dcledger,
// without keys, metering or validation: the plainest fast code over the same file.
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import { openStore } from '../src/storage/database.js';
import { FIXTURE_NOW } from '../src/test-support/real-data.js';

async function dcledger(file: string) {
  const store = openStore({ kind: 'sqlite', file });
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

/** The 50 fields of the Trade resource, in its order, as SQL expressions over trades t, politicians p, filings f. */
const FIELDS: [string, string][] = [
  ['id', 't.id'],
  ['politician_id', 't.politician_id'],
  ['politician_name', 'p.name'],
  ['politician_slug', 'p.slug'],
  ['party', 'p.party'],
  ['state', 'p.state'],
  ['chamber', "case t.source when 'senate_efd' then 'Senate' when 'oge' then 'Executive' else 'House' end"],
  ['ticker', 't.ticker'],
  ['trade_type', 't.trade_type'],
  ['asset_type', 't.asset_type'],
  ['asset_description', 't.asset_description'],
  ['amount_range', 't.amount_range'],
  ['amount_low', 't.amount_low'],
  ['amount_high', 't.amount_high'],
  ['transaction_date', 't.transaction_date'],
  ['disclosure_date', 't.disclosure_date'],
  ['days_to_disclose', 't.days_to_disclose'],
  ['source', 't.source'],
  ['owner', 't.owner'],
  ['filing_id', 't.filing_id'],
  ['filing_url', 'f.url'],
  ['comment', 't.comment'],
  ['sector', 't.sector'],
  ['industry', 't.industry'],
  ['price_on_trade_date', 't.price_on_trade_date'],
  ['price_on_disclosure', 't.price_on_disclosure'],
  ['gain_7d', 't.gain_7d'],
  ['gain_30d', 't.gain_30d'],
  ['gain_60d', 't.gain_60d'],
  ['gain_90d', 't.gain_90d'],
  ['gain_1yr', 't.gain_1yr'],
  ['alpha_30d', 't.alpha_30d'],
  ['alpha_90d', 't.alpha_90d'],
  ['alpha_1yr', 't.alpha_1yr'],
  ['public_gain_30d', 't.public_gain_30d'],
  ['public_gain_90d', 't.public_gain_90d'],
  ['public_gain_180d', 't.public_gain_180d'],
  ['public_alpha_30d', 't.public_alpha_30d'],
  ['public_alpha_90d', 't.public_alpha_90d'],
  ['public_alpha_180d', 't.public_alpha_180d'],
  ['current_return', 't.current_return'],
  ['current_alpha', 't.current_alpha'],
  ['days_held', 'max(0, cast(round(julianday(:today) - julianday(t.transaction_date)) as integer))'],
  ['option_type', 't.option_type'],
  ['strike_price', 't.strike_price'],
  ['option_expiry', 't.option_expiry'],
  ['conviction_score', 't.conviction_score'],
  ['peer_z_score', 't.peer_z_score'],
  ['is_ma_affected', 't.is_ma_affected'],
  ['superseded_by', 't.superseded_by'],
];

const SOURCES: Record<string, string> = { house: 'house_clerk', senate: 'senate_efd', executive: 'oge' };

function tradeSql(select: string, chamber: boolean): string {
  return `select ${select} from trades t join politicians p on p.id = t.politician_id left join filings f on f.id = t.filing_id
    where t.superseded_by is null and t.disclosure_date >= :from and t.disclosure_date <= :to${chamber ? ' and t.source = :source' : ''}
    order by t.disclosure_date desc, t.id desc limit :limit`;
}

async function floor(file: string, json: boolean) {
  const sqlite = new BetterSqlite3(file, { readonly: true });
  const columns = FIELDS.map(([name, expression]) => `${expression} as ${name}`).join(', ');
  const object = `json_object(${FIELDS.map(([name]) => `'${name}', ${name}`).join(', ')})`;
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
    return json ? (statement.get(parameters) as string) : JSON.stringify(statement.all(parameters));
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
if (!file || !mode) throw new Error('usage: http-server.ts dcledger|floor-rows|floor-json <db>');
const server = mode === 'dcledger' ? await dcledger(file) : await floor(file, mode === 'floor-json');
await server.app.listen({ port: 0, host: '127.0.0.1' });
const address = server.app.server.address() as { port: number };
process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
