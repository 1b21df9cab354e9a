// The `dcledger` command line: serve the API, migrate, import data.
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { JOB_STATUS_NAMES } from './cli/job-statuses.js';
import { CommandError } from './cli/output.js';
import { ingestSourcesHelp, SOURCE_NAMES } from './cli/source-names.js';
import { ConfigError } from './config/read.js';
import { DatabaseOpenError } from './storage/open-error.js';

// Each command's module is loaded when that command runs, not before the command line is read:
// `serve` then starts without the importers, OCR review or the MCP server in memory, and a short
// command without the HTTP app.
const commands = {
  accounts: () => import('./cli/accounts.js'),
  import: () => import('./cli/import.js'),
  ingest: () => import('./cli/ingest.js'),
  jobs: () => import('./cli/jobs.js'),
  market: () => import('./cli/market.js'),
  mcp: () => import('./cli/mcp.js'),
  parse: () => import('./cli/parse.js'),
  quality: () => import('./cli/quality.js'),
  review: () => import('./cli/review.js'),
  search: () => import('./cli/search.js'),
  selfService: () => import('./cli/self-service.js'),
  serve: () => import('./cli/serve.js'),
  webhooks: () => import('./cli/webhooks.js'),
  worker: () => import('./cli/worker.js'),
};

/** The action of a command: loads the command's module, then runs `name` from it with commander's arguments. */
function lazy<M, K extends keyof M>(load: () => Promise<M>, name: K): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const action = (await load())[name] as (...args: unknown[]) => unknown;
    await action(...args);
  };
}

/** The version of package.json (one directory above src/ and dist/ alike). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

export function buildCli(): Command {
  const program = new Command('dcledger')
    .description('Congressional and executive-branch stock-trade disclosures as a metered REST API')
    .version(packageVersion(), '-V, --version', 'print the version of dcledger')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('serve')
    .description(
      'start the HTTP API (PORT, default 8080; DCLEDGER_DB or DATABASE_URL), the webhook worker and the ingest schedule',
    )
    .option(
      '--role <role>',
      'all (default) | api (HTTP only) | worker (webhook deliveries) | scheduler (the ingest schedule, one active at a time)',
      'all',
    )
    .option('--no-worker', 'do not run the webhook delivery worker (also DCLEDGER_WEBHOOK_WORKER=off)')
    .option('--no-ingest', 'do not run the official-source ingestion on a schedule')
    .action(lazy(commands.serve, 'serveCommand'));

  program
    .command('webhooks')
    .description('webhook subscriptions')
    .command('reseal')
    .description(
      'encrypt clear-text subscription secrets under DCLEDGER_WEBHOOK_SECRET_KEY or the key file (the secrets stay the same; serve does it at start)',
    )
    .action(lazy(commands.webhooks, 'webhooksResealCommand'));

  program
    .command('worker')
    .description(
      'the worker role alone, as serve --role worker: deliver webhooks from the events outbox and run the queued enrichment jobs until stopped (SIGINT/SIGTERM finish in-flight deliveries and put a running job back)',
    )
    .action(lazy(commands.worker, 'workerCommand'));

  program
    .command('jobs')
    .description('the enrichment jobs, newest first, and the webhook outbox depth')
    .addOption(new Option('--status <status>', 'only jobs in this status').choices(JOB_STATUS_NAMES))
    .option('--limit <n>', 'at most this many jobs (default 20)')
    .option('--json', 'print them as JSON')
    .action(lazy(commands.jobs, 'jobsCommand'));

  program
    .command('ingest')
    .argument('[source]', ingestSourcesHelp(), 'all')
    .option(
      '--since <YYYY-MM-DD>',
      'read the indexes from this filing date (default: where the last run left off)',
    )
    .option(
      '--base-url <url>',
      "the source's base URL (e.g. a replay server); overrides the DCLEDGER_*_BASE_URL settings",
    )
    .option('--json', 'print the report as JSON')
    .option(
      '--log',
      "also write the run's log to stderr (pino JSON, every line carrying the run id, as serve's scheduled runs log)",
    )
    .option(
      '--forms <list>',
      'sec only: forms to ingest, comma-separated (default "4,SC 13D,SC 13G", amendments included)',
    )
    .option('--current', "sec only: also read EDGAR's current-events feed")
    .option('--no-ocr', 'store scans without a text layer as needs_ocr instead of reading them by OCR')
    .description('fetch, archive, parse and store the documents of a source (every source: `ingest --help`)')
    .action(lazy(commands.ingest, 'ingestCommand'));

  program
    .command('replay-server')
    .requiredOption('--data-dir <dir>', 'the shared data directory (with congress/raw-*)')
    .option('--port <n>', 'port to listen on (default: any free port)')
    .option('--host <host>', 'interface (default 127.0.0.1)')
    .option(
      '--withhold <file>',
      'leave the document ids in FILE (one per line: House DocID, eFD report id, OGE file name, EDGAR accession number, USAspending award key) out of every listing until POST /_replay/publish {"ids": [...]}',
    )
    .description("serve the recorded real documents at the official sites' paths, for `ingest --base-url`")
    .action(lazy(commands.ingest, 'replayServerCommand'));

  program
    .command('mcp')
    .description(
      'MCP server over stdio for desktop assistants: the /v1/tools tools, called with DCLEDGER_API_KEY (in-process on the configured database, or a server with --url)',
    )
    .option('--url <url>', 'call the tools on this dcledger server instead of the local database')
    .action(lazy(commands.mcp, 'mcpCommand'));

  program
    .command('migrate')
    .description('create or upgrade the database schema')
    .action(lazy(commands.serve, 'migrateCommand'));

  program
    .command('search')
    .description('semantic search')
    .command('index')
    .description(
      'index new records and embed them now (otherwise the first question after new records does it)',
    )
    .action(lazy(commands.search, 'searchIndexCommand'));

  program
    .command('audit')
    .description(
      'run the quality pass and print the data-quality audit per source: trades, flags, unresolved identities, merged duplicates, unparsed option descriptions, parse statuses (what GET /quality serves)',
    )
    .option('--json', 'print the audit as JSON')
    .action(lazy(commands.quality, 'auditCommand'));

  const members = program.command('members').description("fix who a trade's person is");
  members
    .command('link')
    .argument('<from>', 'id or slug of the record the trades are on now')
    .argument('<to>', 'id or slug of the person they belong to')
    .option('--filing <id>', "only this filing's trades")
    .option('--by <name>', 'who makes the fix (default: the system user)')
    .option('--reason <text>', 'why, for the record')
    .option('--json', 'print the result as JSON')
    .description(
      'move the trades (and filings) to the right person, recorded with who and when; their statistics follow, and later imports that match the from record mean the to record',
    )
    .action(lazy(commands.quality, 'membersLinkCommand'));
  members
    .command('links')
    .option('--json', 'print them as JSON')
    .description('the identity links made')
    .action(lazy(commands.quality, 'membersLinksCommand'));

  const importer = program.command('import').description('load data sets into the database');
  importer
    .command('legislators')
    .argument('<dir>', 'directory with the unitedstates/congress-legislators files')
    .option('--json', 'print the report as JSON')
    .description('members, executive officials, committees and memberships')
    .action(lazy(commands.import, 'importLegislatorsCommand'));
  importer
    .command('trades')
    .argument('<file>', 'Stock Watcher style trade set (JSON or CSV), or a directory of them')
    .option('--json', 'print the report as JSON')
    .description('trades from a Senate or House Stock Watcher style data set (format detected)')
    .action(lazy(commands.import, 'importTradesCommand'));
  importer
    .command('bills')
    .argument('<path>', 'congress.gov API v3 bill JSON or GovInfo BILLSTATUS XML, or a directory of them')
    .option('--json', 'print the report as JSON')
    .description(
      'bills with sponsors, cosponsors, committee referrals, actions, subjects, related bills and recorded votes',
    )
    .action(lazy(commands.import, 'importBillsCommand'));
  importer
    .command('fec')
    .argument(
      '<dir>',
      'FEC bulk files (cn, cm, ccl, itpas2, itcont, weballYY), or a directory of cycle directories',
    )
    .option('--json', 'print the report as JSON')
    .description('campaign finance: candidates, committees, PAC contributions, employer sums, cycle totals')
    .action(lazy(commands.import, 'importFecCommand'));

  // The review queue of rows read from scans (docs/ocr.md).
  const review = program
    .command('review')
    .description(
      'rows read from scans by OCR that wait for a person: list, show, accept, correct, reject, add, settle, reread',
    );
  review
    .command('list')
    .option('--json', 'print them as JSON')
    .option('--source <source>', 'only this source (house_clerk ...)')
    .description('the rows waiting for review')
    .action(lazy(commands.review, 'reviewList'));
  review
    .command('show')
    .argument('<id>', 'review item id')
    .option('--out <file>', 'where to write the PNG crop of the row (default ./review-ID.png)')
    .option('--json', 'print it as JSON')
    .description("a row's fields, their confidences and why it waits; writes a PNG of the row on its page")
    .action(lazy(commands.review, 'reviewShow'));
  for (const [name, action, help] of [
    ['accept', 'reviewAccept', 'the row as read becomes a trade'],
    ['reject', 'reviewReject', 'the row never becomes a trade'],
  ] as const) {
    review
      .command(name)
      .argument('<id>', 'review item id')
      .option('--by <name>', 'who decides (default cli:<user>)')
      .option('--json', 'print the decision as JSON')
      .description(help)
      .action(lazy(commands.review, action));
  }
  review
    .command('correct')
    .argument('<id>', 'review item id')
    .requiredOption(
      '--field <name=value...>',
      'a corrected field (transaction_date, notification_date, owner, trade_type, amount_range, asset_description, ticker, comment); repeatable',
    )
    .option('--by <name>', 'who decides (default cli:<user>)')
    .option('--json', 'print the decision as JSON')
    .description('the fields given replace what was read, then the row becomes a trade')
    .action(lazy(commands.review, 'reviewCorrect'));
  review
    .command('add')
    .argument('<filing>', "the filing's id (dcledger review list names those waiting with no row)")
    .requiredOption(
      '--field <name=value...>',
      'a field of the row as the scan shows it (transaction_date, trade_type, amount_range and asset_description needed; notification_date, owner, ticker, comment); repeatable',
    )
    .option('--page <n>', 'the page of the scan the row is on (default 1)')
    .option('--by <name>', 'who adds it (default cli:<user>)')
    .option('--json', 'print the row added as JSON')
    .description('a row of a scan its reader missed, keyed in by a person: it becomes a trade of the filing')
    .action(lazy(commands.review, 'reviewAdd'));
  review
    .command('settle')
    .argument('<filing>', "the filing's id")
    .option('--by <name>', 'who settles it (default cli:<user>)')
    .option('--json', 'print the decision as JSON')
    .description('a filing that waits with no row to decide holds no more rows than it has: it is parsed')
    .action(lazy(commands.review, 'reviewSettle'));
  review
    .command('reread')
    .option('--source <source>', 'only this source (house_clerk ...)')
    .option('--by <name>', 'who reads them again, recorded on the rows accepted (default cli:<user>)')
    .option('--json', 'print what became of each filing as JSON')
    .description(
      "read again the scans whose rows wait, with the database's companies now (after `companies import`): rows now read surely are accepted",
    )
    .action(lazy(commands.review, 'reviewReread'));

  const accounts = program.command('accounts').description('accounts and their plans');
  accounts
    .command('create')
    .requiredOption('--email <email>', 'account email')
    .option('--plan <plan>', 'none, core (7-day trial unless --paid), pro or max', 'none')
    .option('--credits <n>', 'starting credits (default 750)')
    .option('--paid', 'start the plan paid rather than on its trial')
    .option('--daily-cap <n>', "the first key's daily spend cap (default 25000)")
    .description('create an account and its first API key (printed once, as JSON)')
    .action(lazy(commands.accounts, 'accountsCreate'));
  accounts
    .command('show')
    .argument('<account>', 'account id or email')
    .description('plan and balance')
    .action(lazy(commands.accounts, 'accountsShow'));
  accounts
    .command('plan')
    .argument('<account>', 'account id or email')
    .argument('<plan>', 'none, core, pro or max')
    .option('--paid', 'start the plan paid rather than on its trial')
    .description('change the plan; starts a new billing period with its allowance')
    .action(lazy(commands.accounts, 'accountsPlan'));
  accounts
    .command('limit')
    .argument('<account>', 'account id or email')
    .argument('<requests-per-minute>', 'a whole number, or "plan" to go back to the plan\'s limit')
    .description(
      "give the account a custom per-minute request limit (contracts above Max); it replaces the plan's",
    )
    .action(lazy(commands.accounts, 'accountsLimit'));

  accounts
    .command('operator')
    .argument('<account>', 'account id or email')
    .option('--revoke', 'take operator rights away')
    .description(
      'let an account see the admin view (/ui/admin) and the review queue (/ui/review); it signs in with its password',
    )
    .action(lazy(commands.selfService, 'accountsOperator'));
  accounts
    .command('role')
    .argument('<account>', 'account id or email')
    .argument('<role>', 'operator (the admin view and the review queue at /ui/review), or none')
    .description("set the account's role; it signs in with its password")
    .action(lazy(commands.selfService, 'accountsRole'));
  accounts
    .command('outbox')
    .argument('<email>', 'address')
    .description('mails kept for an address when no SMTP server is set (DCLEDGER_SMTP_URL)')
    .action(lazy(commands.selfService, 'accountsOutbox'));

  const payments = program.command('payments').description('top-ups requested in the account area');
  payments
    .command('list')
    .description('pending payment intents')
    .action(lazy(commands.selfService, 'paymentsList'));
  payments
    .command('confirm')
    .argument('<intent-id>')
    .description('the money arrived: add the credits of a pending top-up')
    .action(lazy(commands.selfService, 'paymentsConfirm'));
  payments
    .command('cancel')
    .argument('<intent-id>')
    .description('drop a pending top-up')
    .action(lazy(commands.selfService, 'paymentsCancel'));

  const keys = program.command('keys').description('API keys');
  keys
    .command('create')
    .requiredOption('--account <account>', 'account id or email')
    .option('--name <name>', 'a label for the key')
    .option('--daily-cap <n>', 'daily spend cap in credits (default 25000)')
    .description('create a key (printed once)')
    .action(lazy(commands.accounts, 'keysCreate'));
  keys
    .command('list')
    .requiredOption('--account <account>', 'account id or email')
    .description('keys by prefix and last four')
    .action(lazy(commands.accounts, 'keysList'));
  keys
    .command('revoke')
    .argument('<key-id>')
    .description('revoke a key at once')
    .action(lazy(commands.accounts, 'keysRevoke'));
  keys
    .command('rotate')
    .argument('<key-id>')
    .description('replace a key with a new one (the old one is revoked)')
    .action(lazy(commands.accounts, 'keysRotate'));
  keys
    .command('cap')
    .argument('<key-id>')
    .argument('<credits>')
    .description("set a key's daily spend cap")
    .action(lazy(commands.accounts, 'keysCap'));
  keys
    .command('log')
    .argument('<key-id>')
    .option('--limit <n>', 'entries (default 50)')
    .description("a key's recent calls")
    .action(lazy(commands.accounts, 'keysLog'));

  const credits = program.command('credits').description('credit grants and top-ups');
  credits
    .command('grant')
    .requiredOption('--account <account>', 'account id or email')
    .requiredOption('--credits <n>', 'credits to add')
    .option('--note <text>', 'why')
    .description('add credits to an account')
    .action(lazy(commands.accounts, 'creditsGrant'));
  credits
    .command('topup')
    .requiredOption('--account <account>', 'account id or email')
    .requiredOption('--amount <dollars>', 'dollars paid (1,000 credits per dollar)')
    .option(
      '--date <YYYY-MM-DD>',
      'payment date (default today); top-ups of the last 30 days lift the rate limit',
    )
    .description('record a paid top-up')
    .action(lazy(commands.accounts, 'creditsTopup'));

  program
    .command('parse')
    .argument(
      '<file>',
      'House PTR PDF, Senate eFD page(s), OGE 278-T PDF, eFD search JSON, House index, or SEC Form 3/4/5 or Schedule 13D/G',
    )
    .addOption(
      new Option('--source <source>', "the document's source (detected when absent)").choices(SOURCE_NAMES),
    )
    .option('--summary', 'print status and counts per document instead of the trades')
    .option('--no-ocr', 'do not read scans by OCR (a scan then exits 1 as needing OCR)')
    .option(
      '--no-database',
      "read scans without checking asset names against the configured database's companies and trades",
    )
    .option(
      '--companies <path>',
      "check a scan's asset names against the issuers of these company directory files (a file or a folder, as `companies import` reads them) instead of the database's companies",
    )
    .description(
      'print the trades in one document as JSON; scans are read by OCR, their rows with per-field confidence (exit 1 when it cannot be read)',
    )
    .action(lazy(commands.parse, 'parseCommand'));

  const prices = program.command('prices').description('daily price data');
  prices
    .command('import')
    .argument(
      '<path>',
      'a price file or a directory of them (Stooq, AlphaVantage, long or wide CSV; detected)',
    )
    .option('--source <name>', 'label the series with this source instead of the format name')
    .option('--json', 'print the report as JSON')
    .description('daily bars and corporate actions; reports bad prints and gaps')
    .action(lazy(commands.market, 'importPricesCommand'));
  prices
    .command('refresh')
    .option('--json', 'print the report as JSON')
    .option('--no-enrich', 'only fetch; leave the enrichment job queued for a worker')
    .description(
      'the daily price job once: new closes of every traded or held symbol from the providers (Stooq, then Tiingo), then enrichment',
    )
    .action(lazy(commands.market, 'refreshPricesCommand'));

  program
    .command('companies')
    .description('the company directory')
    .command('import')
    .argument('[dir]', 'directory of SEC, Nasdaq and S&P 500 company files (or one file)')
    .option(
      '--from-sec',
      "fetch the SEC's company directory (company_tickers.json and company_tickers_exchange.json) instead; DCLEDGER_SEC_CONTACT is required against sec.gov",
    )
    .option(
      '--base-url <url>',
      "with --from-sec: EDGAR's address (e.g. a replay server); overrides DCLEDGER_SEC_BASE_URL",
    )
    .option('--json', 'print the report as JSON')
    .description('tickers, names, sectors; then resolves the tickers trades left out')
    .action(lazy(commands.market, 'importCompaniesCommand'));

  program
    .command('enrich')
    .option('--all', 'recompute every trade and member, not only what changed')
    .option('--json', 'print the report as JSON')
    .description('market fields of trades, member statistics and portfolios (incremental by default)')
    .action(lazy(commands.market, 'enrichCommand'));

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
    if (error instanceof CommandError || error instanceof ConfigError || error instanceof DatabaseOpenError) {
      // One line per problem (a bad configuration lists every bad setting).
      for (const line of error.message.split('\n')) process.stderr.write(`dcledger: ${line}\n`);
      process.exitCode = error instanceof CommandError || error instanceof DatabaseOpenError ? 1 : 2;
      if (error instanceof CommandError) process.exitCode = error.exitCode;
      return;
    }
    throw error;
  }
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) await run(process.argv);
