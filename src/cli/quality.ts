// `dcledger audit [--json]`: the quality pass and its audit (what GET /quality serves), and
// `dcledger members link|links`: an operator's fix of a trade's person (docs/data-quality.md).
import { userInfo } from 'node:os';
import { refreshMembers } from '../analytics/refresh-members.js';
import { loadConfig } from '../config.js';
import { todayUtc } from '../domain/dates.js';
import { SymbolDataCache } from '../market/series-loader.js';
import { openMigratedStore } from '../storage/open.js';
import { findPoliticianId } from '../storage/repositories/politicians-read.js';
import {
  linkIdentity,
  listIdentityLinks,
  type QualityReport,
  updateQualityReport,
} from '../storage/repositories/quality.js';
import { wholeNumber } from './accounts.js';
import { CommandError, printJson, printLine } from './output.js';

export async function auditCommand(options: { json?: boolean }): Promise<void> {
  const store = await openMigratedStore(loadConfig().database);
  try {
    const { refresh, report } = await updateQualityReport(store.db, 'audit');
    if (options.json) return printJson(report);
    printLine(
      `quality pass: ${refresh.flagsChanged} trades (re)flagged, ${refresh.disclosureDatesFilled} disclosure dates and ${refresh.assetTypesFilled} asset types filled from the filings`,
    );
    for (const line of auditLines(report)) printLine(line);
  } finally {
    await store.close();
  }
}

/** The audit as lines for a terminal. */
export function auditLines(report: QualityReport): string[] {
  const { totals } = report;
  const lines = [
    `${totals.trades} current trades: ${totals.flagged} flagged, ${totals.excluded} left out of statistics; ${totals.merged_duplicates} duplicates merged; ${totals.manual_links} manual identity links`,
  ];
  for (const source of report.sources) {
    const counts = (record: Record<string, number>) =>
      Object.entries(record)
        .filter(([, count]) => count > 0)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ') || 'none';
    lines.push(
      '',
      `${source.source}: ${source.trades} trades, ${source.excluded} excluded, ${source.merged_duplicates} merged duplicates`,
      `  flags: ${counts(source.flags)}`,
      `  identity: ${counts(source.identity_match)}`,
      `  unparsed option descriptions: ${source.unparsed_option_descriptions}`,
      `  filings by parse status: ${counts(source.parse_statuses)}`,
    );
    if (source.unresolved_identities.length > 0) {
      lines.push(`  unresolved identities (${source.unresolved_identities.length}):`);
      for (const person of source.unresolved_identities)
        lines.push(`    ${person.slug} (${person.name}): ${person.trades} trades`);
    }
  }
  return lines;
}

export interface MembersLinkOptions {
  filing?: string;
  by?: string;
  reason?: string;
  json?: boolean;
}

export async function membersLinkCommand(
  from: string,
  to: string,
  options: MembersLinkOptions,
): Promise<void> {
  const store = await openMigratedStore(loadConfig().database);
  try {
    const fromId = await findPoliticianId(store.db, from);
    if (fromId === undefined) throw new CommandError(`no politician with id or slug "${from}"`);
    const toId = await findPoliticianId(store.db, to);
    if (toId === undefined) throw new CommandError(`no politician with id or slug "${to}"`);
    if (fromId === toId) throw new CommandError('the two records are the same politician');
    const filingId = wholeNumber('--filing', options.filing) ?? null;
    const linkedBy = options.by?.trim() || userInfo().username;
    const now = new Date();
    const link = await linkIdentity(
      store.db,
      { fromPoliticianId: fromId, toPoliticianId: toId, filingId, linkedBy, reason: options.reason ?? null },
      now,
    );
    // Both members' statistics follow their trades.
    await refreshMembers(store.db, {
      today: todayUtc(now),
      stamp: now.toISOString(),
      all: false,
      touchedMembers: new Set([fromId, toId]),
      cache: new SymbolDataCache(),
    });
    await updateQualityReport(store.db, 'audit', now);
    if (options.json)
      return printJson({
        link_id: link.id,
        trades_moved: link.tradesMoved,
        filings_moved: link.filingsMoved,
      });
    printLine(
      `link ${link.id}: ${link.tradesMoved} trades and ${link.filingsMoved} filings moved from ${from} to ${to} (identity_match manual, by ${linkedBy})`,
    );
  } finally {
    await store.close();
  }
}

export async function membersLinksCommand(options: { json?: boolean }): Promise<void> {
  const store = await openMigratedStore(loadConfig().database);
  try {
    const links = await listIdentityLinks(store.db);
    if (options.json) return printJson(links);
    if (links.length === 0) printLine('no identity links');
    for (const link of links)
      printLine(
        `${link.id}\t${link.from_slug} -> ${link.to_slug}${link.filing_id === null ? '' : ` (filing ${link.filing_id})`}\t${link.trades_moved} trades\tby ${link.linked_by} at ${link.linked_at}${link.reason ? `\t${link.reason}` : ''}`,
      );
  } finally {
    await store.close();
  }
}
