// Market data and what is computed from it: daily bars per symbol and source, corporate actions,
// data-quality flags, provider fetches, the company directory's names, ticker resolutions,
// member statistics and reconstructed portfolios. Numbered 0003 so that it applies after
// 0002 (accounts) wherever both exist; it touches none of 0002's tables.
import type { Kysely } from 'kysely';

const FLOAT = 'double precision';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('price_bars')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('open', FLOAT)
    .addColumn('high', FLOAT)
    .addColumn('low', FLOAT)
    .addColumn('close', FLOAT)
    .addColumn('adj_close', FLOAT, (c) => c.notNull())
    .addColumn('volume', FLOAT)
    .addPrimaryKeyConstraint('price_bars_pk', ['symbol', 'source', 'date'])
    .execute();

  // One row per symbol and source: what the series is and when it last changed, which is what
  // incremental enrichment compares trades' enriched_at against.
  await db.schema
    .createTable('price_series')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('close_basis', 'text', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('first_date', 'text', (c) => c.notNull())
    .addColumn('last_date', 'text', (c) => c.notNull())
    .addColumn('bar_count', 'integer', (c) => c.notNull())
    .addColumn('origin', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('history_changed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('price_series_pk', ['symbol', 'source'])
    .execute();
  await db.schema.createIndex('price_series_updated_idx').on('price_series').column('updated_at').execute();

  await db.schema
    .createTable('corporate_actions')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', FLOAT, (c) => c.notNull())
    .addPrimaryKeyConstraint('corporate_actions_pk', ['symbol', 'source', 'date', 'kind'])
    .execute();

  await db.schema
    .createTable('price_flags')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('detected_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('price_flags_pk', ['symbol', 'source', 'date', 'kind'])
    .execute();

  await db.schema
    .createTable('price_fetches')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('bars', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('detail', 'text')
    .execute();

  await db.schema.alterTable('companies').addColumn('share_class', 'text').execute();
  for (const column of [
    'gics_sector',
    'gics_sub_industry',
    'nasdaq_sector',
    'nasdaq_industry',
    'sector_source',
    'industry_source',
    'sources',
  ]) {
    await db.schema.alterTable('companies').addColumn(column, 'text').execute();
  }
  await db.schema
    .alterTable('companies')
    .addColumn('is_etf', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Every directory file's rows as read (the companies table is merged from them), with each
  // name's matching key for resolving asset descriptions.
  await db.schema
    .createTable('company_listings')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('name_key', 'text')
    .addColumn('share_class', 'text')
    .addColumn('cik', 'text')
    .addColumn('exchange', 'text')
    .addColumn('gics_sector', 'text')
    .addColumn('gics_sub_industry', 'text')
    .addColumn('nasdaq_sector', 'text')
    .addColumn('nasdaq_industry', 'text')
    .addColumn('is_etf', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('common', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_listings_pk', ['origin', 'ticker'])
    .execute();
  await db.schema.createIndex('company_listings_key_idx').on('company_listings').column('name_key').execute();
  await db.schema
    .createIndex('company_listings_ticker_idx')
    .on('company_listings')
    .column('ticker')
    .execute();

  await db.schema
    .createTable('ticker_resolutions')
    .addColumn('trade_id', 'integer', (c) => c.primaryKey().references('trades.id').onDelete('cascade'))
    .addColumn('filed_ticker', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('method', 'text')
    .addColumn('source', 'text')
    .addColumn('candidates', 'text')
    .addColumn('detail', 'text')
    .addColumn('resolved_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ticker_resolutions_status_idx')
    .on('ticker_resolutions')
    .column('status')
    .execute();

  // filed_ticker keeps what the filer wrote when `ticker` was resolved or respelled, so that
  // importers still recognize the trade; market_symbol is the symbol priced for it (the
  // underlying of an option, the class-share spelling of the price files).
  await db.schema.alterTable('trades').addColumn('filed_ticker', 'text').execute();
  await db.schema.alterTable('trades').addColumn('market_symbol', 'text').execute();
  await db.schema.alterTable('trades').addColumn('enrich_due', 'text').execute();
  await db.schema
    .alterTable('trades')
    .addColumn('awaiting_prices', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('trades_market_symbol_idx')
    .on('trades')
    .columns(['market_symbol', 'transaction_date'])
    .execute();
  await db.schema.createIndex('trades_enrich_due_idx').on('trades').column('enrich_due').execute();

  let stats = db.schema
    .createTable('politician_stats')
    .addColumn('politician_id', 'integer', (c) =>
      c.primaryKey().references('politicians.id').onDelete('cascade'),
    );
  for (const column of [
    'win_rate',
    'avg_alpha_30d',
    'avg_alpha_90d',
    'sharpe_ratio',
    'sharpe_ratio_low',
    'sharpe_ratio_high',
    'portfolio_return',
    'portfolio_return_low',
    'portfolio_return_high',
    'cagr',
    'cagr_low',
    'cagr_high',
    'conflict_score',
    'conflict_score_low',
    'conflict_score_high',
    'priced_share',
  ]) {
    stats = stats.addColumn(column, FLOAT);
  }
  await stats
    .addColumn('wins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('losses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('holdings_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('portfolio_start', 'text')
    .addColumn('portfolio_end', 'text')
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .execute();

  let holdings = db.schema
    .createTable('portfolio_holdings')
    .addColumn('politician_id', 'integer', (c) =>
      c.notNull().references('politicians.id').onDelete('cascade'),
    )
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('market_symbol', 'text')
    .addColumn('asset_description', 'text')
    .addColumn('sector', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('net_direction', 'text', (c) => c.notNull())
    .addColumn('trade_count', 'integer', (c) => c.notNull())
    .addColumn('buy_count', 'integer', (c) => c.notNull())
    .addColumn('sell_count', 'integer', (c) => c.notNull())
    .addColumn('first_trade_date', 'text', (c) => c.notNull())
    .addColumn('last_trade_date', 'text', (c) => c.notNull())
    .addColumn('value_basis', 'text', (c) => c.notNull())
    .addColumn('last_price_date', 'text');
  for (const column of [
    'bought_low',
    'bought_high',
    'sold_low',
    'sold_high',
    'cost_low',
    'cost_high',
    'cost_mid',
    'value_low',
    'value_high',
    'value_mid',
    'last_price',
    'unrealized_pnl_low',
    'unrealized_pnl_high',
    'unrealized_pnl_mid',
  ]) {
    holdings = holdings.addColumn(column, FLOAT);
  }
  await holdings
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('portfolio_holdings_pk', ['politician_id', 'ticker'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'portfolio_holdings',
    'politician_stats',
    'ticker_resolutions',
    'company_listings',
    'price_fetches',
    'price_flags',
    'corporate_actions',
    'price_series',
    'price_bars',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex('trades_enrich_due_idx').ifExists().execute();
  await db.schema.dropIndex('trades_market_symbol_idx').ifExists().execute();
  for (const column of ['awaiting_prices', 'enrich_due', 'market_symbol', 'filed_ticker']) {
    await db.schema.alterTable('trades').dropColumn(column).execute();
  }
  for (const column of [
    'is_etf',
    'sources',
    'industry_source',
    'sector_source',
    'nasdaq_industry',
    'nasdaq_sector',
    'gics_sub_industry',
    'gics_sector',
    'share_class',
  ]) {
    await db.schema.alterTable('companies').dropColumn(column).execute();
  }
}
