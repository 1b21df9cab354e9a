// The `dcledger` command line: serve the API, migrate, import data.
import { Command, CommanderError, Option } from 'commander';
import {
  accountsCreate,
  accountsPlan,
  accountsShow,
  creditsGrant,
  creditsTopup,
  keysCap,
  keysCreate,
  keysList,
  keysLog,
  keysRevoke,
  keysRotate,
} from './cli/accounts.js';
import {
  importBillsCommand,
  importFecCommand,
  importLegislatorsCommand,
  importTradesCommand,
} from './cli/import.js';
import { ingestCommand, replayServerCommand } from './cli/ingest.js';
import { enrichCommand, importCompaniesCommand, importPricesCommand } from './cli/market.js';
import { CommandError } from './cli/output.js';
import { parseCommand } from './cli/parse.js';
import { migrateCommand, serveCommand } from './cli/serve.js';
import { workerCommand } from './cli/worker.js';
import { ConfigError } from './config.js';

export function buildCli(): Command {
  const program = new Command('dcledger')
    .description('Congressional and executive-branch stock-trade disclosures as a metered REST API')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('serve')
    .description(
      'start the HTTP API (PORT, default 8080; DCLEDGER_DB or DATABASE_URL), the webhook worker and the ingest schedule',
    )
    .option('--no-worker', 'do not run the webhook delivery worker (also DCLEDGER_WEBHOOK_WORKER=off)')
    .option('--no-ingest', 'do not run the official-source ingestion on a schedule')
    .action(serveCommand);

  program
    .command('worker')
    .description(
      'deliver webhooks from the events outbox until stopped (SIGINT/SIGTERM finish in-flight deliveries)',
    )
    .action(workerCommand);

  program
    .command('ingest')
    .argument('[source]', 'house, senate, oge, all, or votes (roll calls, not part of all)', 'all')
    .option(
      '--since <YYYY-MM-DD>',
      'read the indexes from this filing date (default: where the last run left off)',
    )
    .option(
      '--base-url <url>',
      "the source's base URL (e.g. a replay server); overrides the DCLEDGER_*_BASE_URL settings",
    )
    .option('--json', 'print the report as JSON')
    .description('fetch, archive, parse and store the official filings (House Clerk, Senate eFD, OGE)')
    .action(ingestCommand);

  program
    .command('replay-server')
    .requiredOption('--data-dir <dir>', 'the shared data directory (with congress/raw-*)')
    .option('--port <n>', 'port to listen on (default: any free port)')
    .option('--host <host>', 'interface (default 127.0.0.1)')
    .description("serve the recorded real documents at the official sites' paths, for `ingest --base-url`")
    .action(replayServerCommand);

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
  importer
    .command('bills')
    .argument('<path>', 'congress.gov API v3 bill JSON or GovInfo BILLSTATUS XML, or a directory of them')
    .option('--json', 'print the report as JSON')
    .description(
      'bills with sponsors, cosponsors, committee referrals, actions, subjects, related bills and recorded votes',
    )
    .action(importBillsCommand);
  importer
    .command('fec')
    .argument(
      '<dir>',
      'FEC bulk files (cn, cm, ccl, itpas2, itcont, weballYY), or a directory of cycle directories',
    )
    .option('--json', 'print the report as JSON')
    .description('campaign finance: candidates, committees, PAC contributions, employer sums, cycle totals')
    .action(importFecCommand);

  const accounts = program.command('accounts').description('accounts and their plans');
  accounts
    .command('create')
    .requiredOption('--email <email>', 'account email')
    .option('--plan <plan>', 'none, core (7-day trial unless --paid), pro or max', 'none')
    .option('--credits <n>', 'starting credits (default 750)')
    .option('--paid', 'start the plan paid rather than on its trial')
    .option('--daily-cap <n>', "the first key's daily spend cap (default 25000)")
    .description('create an account and its first API key (printed once, as JSON)')
    .action(accountsCreate);
  accounts
    .command('show')
    .argument('<account>', 'account id or email')
    .description('plan and balance')
    .action(accountsShow);
  accounts
    .command('plan')
    .argument('<account>', 'account id or email')
    .argument('<plan>', 'none, core, pro or max')
    .option('--paid', 'start the plan paid rather than on its trial')
    .description('change the plan; starts a new billing period with its allowance')
    .action(accountsPlan);

  const keys = program.command('keys').description('API keys');
  keys
    .command('create')
    .requiredOption('--account <account>', 'account id or email')
    .option('--name <name>', 'a label for the key')
    .option('--daily-cap <n>', 'daily spend cap in credits (default 25000)')
    .description('create a key (printed once)')
    .action(keysCreate);
  keys
    .command('list')
    .requiredOption('--account <account>', 'account id or email')
    .description('keys by prefix and last four')
    .action(keysList);
  keys.command('revoke').argument('<key-id>').description('revoke a key at once').action(keysRevoke);
  keys
    .command('rotate')
    .argument('<key-id>')
    .description('replace a key with a new one (the old one is revoked)')
    .action(keysRotate);
  keys
    .command('cap')
    .argument('<key-id>')
    .argument('<credits>')
    .description("set a key's daily spend cap")
    .action(keysCap);
  keys
    .command('log')
    .argument('<key-id>')
    .option('--limit <n>', 'entries (default 50)')
    .description("a key's recent calls")
    .action(keysLog);

  const credits = program.command('credits').description('credit grants and top-ups');
  credits
    .command('grant')
    .requiredOption('--account <account>', 'account id or email')
    .requiredOption('--credits <n>', 'credits to add')
    .option('--note <text>', 'why')
    .description('add credits to an account')
    .action(creditsGrant);
  credits
    .command('topup')
    .requiredOption('--account <account>', 'account id or email')
    .requiredOption('--amount <dollars>', 'dollars paid (1,000 credits per dollar)')
    .option(
      '--date <YYYY-MM-DD>',
      'payment date (default today); top-ups of the last 30 days lift the rate limit',
    )
    .description('record a paid top-up')
    .action(creditsTopup);

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
