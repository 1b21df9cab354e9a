// The `dcledger` command line: serve the API, migrate, import data.
import { Command, CommanderError, Option } from 'commander';
import { importLegislatorsCommand, importTradesCommand } from './cli/import.js';
import { CommandError } from './cli/output.js';
import { parseCommand } from './cli/parse.js';
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
    .command('parse')
    .argument('<file>', 'House PTR PDF, Senate eFD page(s), OGE 278-T PDF, eFD search JSON or House index')
    .addOption(
      new Option('--source <source>', "the document's source (detected when absent)").choices([
        'house',
        'senate',
        'oge',
      ]),
    )
    .option('--summary', 'print status and counts per document instead of the trades')
    .description(
      'print the trades in one document as JSON (exit 1 when it cannot be read, e.g. a scan that needs OCR)',
    )
    .action(parseCommand);

  return program;
}

export async function run(argv: readonly string[]): Promise<void> {
  const program = buildCli();
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander reports usage errors with 1; 2 keeps them apart from "could not do it" (1).
      process.exitCode = error.exitCode === 0 ? 0 : 2;
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
