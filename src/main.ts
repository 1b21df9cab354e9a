// The `dcledger` command line: serve the API, migrate, import data.
import { Command, CommanderError } from 'commander';
import { importLegislatorsCommand, importTradesCommand } from './cli/import.js';
import { enrichCommand, importCompaniesCommand, importPricesCommand } from './cli/market.js';
import { CommandError } from './cli/output.js';
import { migrateCommand, serveCommand } from './cli/serve.js';
import { ConfigError } from './config.js';

export function buildCli(): Command {
  const program = new Command('dcledger')
    .description('Congressional and executive-branch stock-trade disclosures as a metered REST API')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('serve')
    .description('start the HTTP API (PORT, default 8080; DCLEDGER_DB or DATABASE_URL)')
    .action(serveCommand);

  program.command('migrate').description('create or upgrade the database schema').action(migrateCommand);

  const importer = program.command('import').description('load data sets into the database');
  importer
    .command('legislators')
    .argument('<dir>', 'directory with the unitedstates/congress-legislators files')
    .option('--json', 'print the report as JSON')
    .description('members, executive officials, committees and memberships')
    .action(importLegislatorsCommand);
  importer
    .command('trades')
    .argument('<file>', 'Stock Watcher style trade set (JSON or CSV), or a directory of them')
    .option('--json', 'print the report as JSON')
    .description('trades from a Senate or House Stock Watcher style data set (format detected)')
    .action(importTradesCommand);

  program
    .command('prices')
    .description('daily price data')
    .command('import')
    .argument(
      '<path>',
      'a price file or a directory of them (Stooq, AlphaVantage, long or wide CSV; detected)',
    )
    .option('--source <name>', 'label the series with this source instead of the format name')
    .option('--json', 'print the report as JSON')
    .description('daily bars and corporate actions; reports bad prints and gaps')
    .action(importPricesCommand);

  program
    .command('companies')
    .description('the company directory')
    .command('import')
    .argument('<dir>', 'directory of SEC, Nasdaq and S&P 500 company files (or one file)')
    .option('--json', 'print the report as JSON')
    .description('tickers, names, sectors; then resolves the tickers trades left out')
    .action(importCompaniesCommand);

  program
    .command('enrich')
    .option('--all', 'recompute every trade and member, not only what changed')
    .option('--json', 'print the report as JSON')
    .description('market fields of trades, member statistics and portfolios (incremental by default)')
    .action(enrichCommand);

  return program;
}

export async function run(argv: readonly string[]): Promise<void> {
  const program = buildCli();
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    if (error instanceof CommandError || error instanceof ConfigError) {
      process.stderr.write(`dcledger: ${error.message}\n`);
      process.exitCode = error instanceof CommandError ? error.exitCode : 2;
      return;
    }
    throw error;
  }
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) await run(process.argv);
