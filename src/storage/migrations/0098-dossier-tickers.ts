// The stored company dossiers (0097-stored-dossiers) rebuilt per ticker: the tables whose rows
// belong to tickers note which tickers a write touches, so that `enrich` rebuilds only those.
//
// dossier_ticker_changes: the tickers whose stored dossier an input change has made stale since
// the last rebuild (at most one row per ticker, as analytics_changes per scope). Their stored text
// is not read until a rebuild has seen the change.
//
// Per ticker (replacing the whole scope's triggers of 0097 on these tables): a trade (its ticker
// before and after an update of a column the dossier shows or sums), the directory, company links,
// Form 3/4/5 lines and 13D/G persons (their ticker), a price bar of a ticker that has a 13D/G
// statement (the statement's value is at the latest close), a lobbying filing, its issue codes (the
// filing's ticker), a contract award, a PAC contribution and a PAC (the tickers the PAC's connected
// organization links to). Members, committees, seats, bills and members' FEC ids keep noting the
// whole scope 'dossier': a change of them touches tickers no row names (every company a committee
// oversees, every bill naming a company), so every dossier is rebuilt.
import { type Kysely, sql } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';
import {
  createChangeTriggers,
  createTickerChangeTriggers,
  dropChangeTriggersOn,
  dropTickerChangeTriggers,
  type TickerWatchedTable,
} from '../ddl-changes.js';
import { WATCHED } from './0097-stored-dossiers.js';

const SCOPE = 'dossier';
const CHANGES = 'dossier_ticker_changes';

const ownTicker = (row: string) => `${row}.ticker`;
const columnsOf = (table: string) => WATCHED.find((watched) => watched.table === table)?.columns ?? null;

/** What each table's row touches. */
const BY_TICKER: readonly TickerWatchedTable[] = [
  { table: 'trades', columns: columnsOf('trades'), ticker: ownTicker },
  { table: 'companies', columns: null, ticker: ownTicker },
  { table: 'company_links', columns: null, ticker: ownTicker },
  { table: 'insider_trades', columns: null, ticker: ownTicker },
  { table: 'whale_positions', columns: null, ticker: ownTicker },
  {
    table: 'price_bars',
    columns: null,
    ticker: (row) => `${row}.symbol`,
    where: (row) => `exists (select 1 from whale_positions w where w.ticker = ${row}.symbol)`,
  },
  { table: 'lobbying_filings', columns: null, ticker: ownTicker },
  {
    table: 'lobbying_issues',
    columns: null,
    ticker: () => 'f.ticker',
    join: 'lobbying_filings f',
    where: (row) => `f.id = ${row}.filing_id`,
  },
  { table: 'contract_awards', columns: null, ticker: ownTicker },
  {
    table: 'fec_committee_contributions',
    columns: null,
    ticker: () => 'l.ticker',
    join: `fec_committees g join company_links l on l.identifier_kind = 'name' and l.identifier_value = g.connected_org_key`,
    where: (row) => `g.id = ${row}.committee_id`,
  },
  {
    table: 'fec_committees',
    columns: null,
    ticker: () => 'l.ticker',
    join: 'company_links l',
    where: (row) => `l.identifier_kind = 'name' and l.identifier_value = ${row}.connected_org_key`,
  },
];

const WHOLE_BEFORE = WATCHED.filter((watched) => BY_TICKER.some((table) => table.table === watched.table));

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable(CHANGES)
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('ticker', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex(`${CHANGES}_ticker_idx`).on(CHANGES).column('ticker').execute();
  await dropChangeTriggersOn(db, SCOPE, WHOLE_BEFORE);
  await createTickerChangeTriggers(db, CHANGES, SCOPE, BY_TICKER);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTickerChangeTriggers(db, CHANGES, BY_TICKER);
  await createChangeTriggers(db, SCOPE, WHOLE_BEFORE);
  await db.schema.dropTable(CHANGES).execute();
  // The tickers still pending are forgotten with their table: the next rebuild is whole.
  await sql`insert into analytics_changes (scope) values (${SCOPE})`.execute(db);
}
