// `dcledger import legislators|trades`.
import { loadConfig } from '../config.js';
import { importBills } from '../ingest/bills/import.js';
import { FecInputError, importFec } from '../ingest/fec/import.js';
import { importLegislators } from '../ingest/legislators/import.js';
import { LegislatorFilesError } from '../ingest/legislators/read.js';
import { BillFileError } from '../ingest/sources/congress/bill-status.js';
import { ImportInputError, type ImportReport, importTradeSets } from '../ingest/trade-sets/import.js';
import { TradeSetFormatError } from '../ingest/trade-sets/read.js';
import { openMigratedStore } from '../storage/open.js';
import { CommandError, printJson, printLine } from './output.js';
import { progressBar } from './progress.js';

export async function importLegislatorsCommand(dir: string, options: { json?: boolean }): Promise<void> {
  const store = await openMigratedStore(loadConfig().database);
  try {
    const report = await importLegislators(store.db, dir);
    if (options.json) return printJson(report);
    printLine(`read ${report.files.join(', ')}`);
    printLine(
      `politicians: ${report.people} in files, ${report.inserted} new, ${report.updated} updated, ${report.unchanged} unchanged`,
    );
    printLine(
      `committees: ${report.committees}; memberships: ${report.memberships} (skipped ${report.membershipsSkipped})`,
    );
    if (report.seats)
      printLine(
        `committee seats: ${report.seats.opened} opened, ${report.seats.closed} closed, ${report.seats.updated} updated, ${report.seats.unchanged} unchanged`,
      );
    printLine(`FEC candidate ids linked: ${report.fecIds} new or changed`);
  } catch (error) {
    if (error instanceof LegislatorFilesError) throw new CommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

export async function importTradesCommand(path: string, options: { json?: boolean }): Promise<void> {
  const store = await openMigratedStore(loadConfig().database);
  const progress = progressBar('importing');
  try {
    const report = await importTradeSets(store.db, path, { progress: progress.update });
    progress.stop();
    if (options.json) return printJson(report);
    printImportReport(report);
  } catch (error) {
    progress.stop();
    if (error instanceof ImportInputError || error instanceof TradeSetFormatError)
      throw new CommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

function printImportReport(report: ImportReport): void {
  const formats = [...new Set(report.files.map((file) => file.format))].join(', ');
  const { totals } = report;
  printLine(`${report.files.length} file(s) (${formats}): ${totals.rows} rows`);
  printLine(`imported ${totals.imported} new trades, merged ${totals.merged}, unchanged ${totals.unchanged}`);
  const reasons = new Map<string, number>();
  let filings = 0;
  const created = new Set<string>();
  const matched = { bioguide: 0, seat: 0, name: 0 };
  for (const file of report.files) {
    for (const [reason, count] of Object.entries(file.skipped))
      reasons.set(reason, (reasons.get(reason) ?? 0) + count);
    filings += file.filingsCreated;
    for (const name of file.members.created) created.add(name);
    matched.bioguide += file.members.bioguide;
    matched.seat += file.members.seat;
    matched.name += file.members.name;
  }
  printLine(`skipped ${totals.skipped} rows${totals.skipped ? ':' : ''}`);
  for (const [reason, count] of [...reasons].sort((a, b) => b[1] - a[1])) printLine(`  ${count}\t${reason}`);
  printLine(`filings recorded: ${filings} new`);
  const rejected = report.files.flatMap((file) => file.rejectedHints);
  if (rejected.length > 0) {
    printLine(
      `bioguide ids ignored (name or term disagreed; matched by name and term instead): ${rejected.length}`,
    );
    for (const hint of rejected.slice(0, 20)) printLine(`  ${hint}`);
  }
  const { quality } = report;
  printLine(
    `quality: ${quality.flagsChanged} trades (re)flagged, ${quality.disclosureDatesFilled} disclosure dates and ${quality.assetTypesFilled} asset types filled from the filings (dcledger audit)`,
  );
  printLine(
    `members matched by bioguide ${matched.bioguide}, by seat ${matched.seat}, by name ${matched.name}`,
  );
  if (created.size > 0) {
    printLine(`filers not found among known members (created without a bioguide id): ${created.size}`);
    for (const name of [...created].sort()) printLine(`  ${name}`);
  }
}

export async function importBillsCommand(path: string, options: { json?: boolean }): Promise<void> {
  const store = await openMigratedStore(loadConfig().database);
  try {
    const report = await importBills(store.db, path);
    if (options.json) return printJson(report);
    printLine(
      `${report.files} file(s): ${report.bills} bills, ${report.inserted} new, ${report.updated} updated, ${report.unchanged} unchanged`,
    );
    for (const skipped of report.skipped) printLine(`  skipped ${skipped.reason}`);
  } catch (error) {
    if (error instanceof BillFileError) throw new CommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

export async function importFecCommand(dir: string, options: { json?: boolean }): Promise<void> {
  const store = await openMigratedStore(loadConfig().database);
  const progress = progressBar('importing FEC files');
  try {
    const report = await importFec(store.db, dir, {
      progress: (done, total) => progress.update(done, total),
    });
    progress.stop();
    if (options.json) return printJson(report);
    for (const file of report.files) {
      const skipped = Object.values(file.skipped).reduce((a, b) => a + b, 0);
      printLine(`${file.file} (${file.kind}): ${file.rows} rows, ${skipped} skipped`);
      for (const [reason, count] of Object.entries(file.skipped)) printLine(`  ${count}\t${reason}`);
    }
    for (const [kind, saved] of Object.entries(report.saved))
      printLine(`${kind}: ${saved.inserted} new, ${saved.updated} updated, ${saved.unchanged} unchanged`);
    for (const ignored of report.ignored) printLine(`ignored ${ignored.file}: ${ignored.reason}`);
    printLine(
      `candidates linked to members (congress-legislators FEC ids): ${report.candidatesLinkedToMembers}`,
    );
    printLine(`employers matched to no company: ${report.unmatchedEmployerCount} (largest first):`);
    for (const employer of report.unmatchedEmployers)
      printLine(`  ${employer.amount.toFixed(2)}\t${employer.name}`);
  } catch (error) {
    progress.stop();
    if (error instanceof FecInputError) throw new CommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}
