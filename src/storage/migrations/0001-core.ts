// Politicians, committees, companies, filings and trades: the data the trade endpoints serve.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

const FLOAT = 'double precision';

const COMPUTED_TRADE_FIELDS = [
  'price_on_trade_date',
  'price_on_disclosure',
  'gain_7d',
  'gain_30d',
  'gain_60d',
  'gain_90d',
  'gain_1yr',
  'alpha_30d',
  'alpha_90d',
  'alpha_1yr',
  'public_gain_30d',
  'public_gain_90d',
  'public_gain_180d',
  'public_alpha_30d',
  'public_alpha_90d',
  'public_alpha_180d',
  'current_return',
  'current_alpha',
  'conviction_score',
  'peer_z_score',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('politicians')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('bioguide_id', 'text', (c) => c.unique())
    .addColumn('lis_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('nickname', 'text')
    .addColumn('party', 'text')
    .addColumn('state', 'text')
    .addColumn('chamber', 'text', (c) => c.notNull())
    .addColumn('district', 'text')
    .addColumn('title', 'text')
    .addColumn('agency', 'text')
    .addColumn('birthday', 'text')
    .addColumn('in_office', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const column of ['party', 'state', 'chamber', 'last_name']) {
    await db.schema.createIndex(`politicians_${column}_idx`).on('politicians').column(column).execute();
  }

  await db.schema
    .createTable('politician_terms')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('politician_id', 'integer', (c) =>
      c.notNull().references('politicians.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('state', 'text')
    .addColumn('district', 'text')
    .addColumn('party', 'text')
    .execute();
  await db.schema
    .createIndex('politician_terms_politician_idx')
    .on('politician_terms')
    .column('politician_id')
    .execute();
  await db.schema
    .createIndex('politician_terms_seat_idx')
    .on('politician_terms')
    .columns(['state', 'district'])
    .execute();

  await db.schema
    .createTable('committees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('chamber', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('url', 'text')
    .addColumn('jurisdiction', 'text')
    .execute();

  await db.schema
    .createTable('committee_memberships')
    .addColumn('committee_id', 'text', (c) => c.notNull().references('committees.id').onDelete('cascade'))
    .addColumn('politician_id', 'integer', (c) =>
      c.notNull().references('politicians.id').onDelete('cascade'),
    )
    .addColumn('side', 'text')
    .addColumn('title', 'text')
    .addColumn('rank', 'integer')
    .addPrimaryKeyConstraint('committee_memberships_pk', ['committee_id', 'politician_id'])
    .execute();
  await db.schema
    .createIndex('committee_memberships_politician_idx')
    .on('committee_memberships')
    .column('politician_id')
    .execute();

  await db.schema
    .createTable('companies')
    .addColumn('ticker', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text')
    .addColumn('cik', 'text')
    .addColumn('exchange', 'text')
    .addColumn('sector', 'text')
    .addColumn('industry', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bills')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('congress', 'integer', (c) => c.notNull())
    .addColumn('bill_type', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('short_title', 'text')
    .addColumn('introduced_date', 'text')
    .addColumn('sponsor_bioguide_id', 'text')
    .addColumn('policy_area', 'text')
    .addColumn('latest_action_date', 'text')
    .addColumn('latest_action_text', 'text')
    .addColumn('url', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('filings')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_doc_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('politician_id', 'integer', (c) => c.references('politicians.id'))
    .addColumn('filer_name', 'text')
    .addColumn('filed_date', 'text')
    .addColumn('url', 'text')
    .addColumn('is_paper', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('raw_sha256', 'text')
    .addColumn('parse_status', 'text', (c) => c.notNull())
    .addColumn('parse_reason', 'text')
    .addColumn('trade_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amends_filing_id', 'integer', (c) => c.references('filings.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('filings_source_doc_unique', ['source', 'source_doc_id'])
    .execute();
  await db.schema.createIndex('filings_politician_idx').on('filings').column('politician_id').execute();
  await db.schema.createIndex('filings_filed_date_idx').on('filings').column('filed_date').execute();

  let trades = db.schema
    .createTable('trades')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('politician_id', 'integer', (c) => c.notNull().references('politicians.id'))
    .addColumn('filing_id', 'integer', (c) => c.references('filings.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('asset_description', 'text')
    .addColumn('asset_type', 'text')
    .addColumn('trade_type', 'text', (c) => c.notNull())
    .addColumn('trade_action', 'text', (c) => c.notNull())
    .addColumn('amount_range', 'text')
    .addColumn('amount_low', 'integer')
    .addColumn('amount_high', 'integer')
    .addColumn('transaction_date', 'text', (c) => c.notNull())
    .addColumn('disclosure_date', 'text')
    .addColumn('days_to_disclose', 'integer')
    .addColumn('owner', 'text')
    .addColumn('comment', 'text')
    .addColumn('option_type', 'text')
    .addColumn('strike_price', FLOAT)
    .addColumn('option_expiry', 'text')
    .addColumn('sector', 'text')
    .addColumn('industry', 'text');
  for (const field of COMPUTED_TRADE_FIELDS) trades = trades.addColumn(field, FLOAT);
  await trades
    .addColumn('is_ma_affected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enriched_at', 'text')
    .addColumn('superseded_by', 'integer', (c) => c.references('trades.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('trades_source_key_unique', ['source', 'source_key'])
    .execute();

  // Other origins' identities of a trade that was merged into an existing one (e.g. the same
  // House trade in two data sets), so that re-importing either changes nothing.
  await db.schema
    .createTable('trade_aliases')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'integer', (c) => c.notNull().references('trades.id').onDelete('cascade'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trade_aliases_pk', ['source', 'source_key'])
    .execute();
  await db.schema.createIndex('trade_aliases_trade_idx').on('trade_aliases').column('trade_id').execute();

  const tradeIndexes: Record<string, string[]> = {
    trades_source_idx: ['source', 'disclosure_date'],
    trades_disclosure_idx: ['disclosure_date', 'id'],
    trades_transaction_idx: ['transaction_date', 'id'],
    trades_politician_idx: ['politician_id', 'transaction_date'],
    trades_ticker_idx: ['ticker', 'disclosure_date'],
    trades_filing_idx: ['filing_id'],
    trades_action_idx: ['trade_action', 'disclosure_date'],
    trades_asset_type_idx: ['asset_type', 'disclosure_date'],
    trades_sector_idx: ['sector', 'disclosure_date'],
  };
  for (const [name, columns] of Object.entries(tradeIndexes)) {
    await db.schema.createIndex(name).on('trades').columns(columns).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'trade_aliases',
    'trades',
    'filings',
    'bills',
    'companies',
    'committee_memberships',
    'committees',
    'politician_terms',
    'politicians',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
