// Amendments find what they amend, after a run has stored its documents (so the order documents
// arrive in does not matter) and again on every later run while the original is not on record.
//
// - eFD: an "(Amendment N)" page restates a whole report. Its title carries the original's filing
//   date, so it amends the same member's report filed that day, or the latest amendment of it
//   (the head of the chain). Several reports filed that day: the one sharing the most rows.
//   Each row of the amended version is superseded by the amendment's row it pairs with (agreeing
//   on at least 3 of asset, date, owner, action, bracket); a row the amendment no longer lists
//   stays on record, as the filer last stated it.
// - House: only the rows marked "Filing Status: Amended" are restated, usually in a later PTR with
//   other new rows. Each replaces the member's earlier live House trade (from an earlier filing)
//   that agrees with it on at least 4 of the 5 fields, when exactly one such trade is the best.
//
// The old trade keeps its data and gets `superseded_by`; the amending filing gets `amends_filing_id`.
import type { Kysely } from 'kysely';
import { refreshTradeCounts } from '../../storage/repositories/filings.js';
import { pendingAmendments, setPendingAmendment } from '../../storage/repositories/ingest.js';
import {
  amendableFilings,
  amendingFiling,
  setAmendsFiling,
} from '../../storage/repositories/official-filings.js';
import {
  liveTradesOfFiling,
  liveTradesOfMember,
  type MemberTrade,
  type ReportTrade,
  supersedeTrade,
  tradesByKeys,
} from '../../storage/repositories/report-trades.js';
import type { Database } from '../../storage/schema.js';
import { inRetriedTransaction } from '../../storage/transaction.js';
import { agreement, FIELDS_COMPARED, pairRows } from './pairing.js';
import { comparable, type PendingAmendment } from './store.js';

const REPORT_ROW_MINIMUM = 3;
const HOUSE_ROW_MINIMUM = FIELDS_COMPARED - 1;

export interface AmendmentReport {
  /** Amendments that found what they amend in this run. */
  linked: number;
  /** Trades superseded in this run. */
  superseded: number;
  /** Amendments still looking for what they amend. */
  pending: number;
}

export async function resolveAmendments(
  db: Kysely<Database>,
  source: string,
  now: Date,
): Promise<AmendmentReport> {
  const report: AmendmentReport = { linked: 0, superseded: 0, pending: 0 };
  for (const row of await pendingAmendments(db, source)) {
    const pending = JSON.parse(row.pending_amendment) as PendingAmendment;
    // One transaction per amendment: a crash leaves it pending, never half-applied. The tally
    // follows the transaction, so one ended by a lock conflict runs again.
    const result = await inRetriedTransaction(db, async (trx) => {
      const resolution =
        pending.kind === 'report'
          ? await resolveReport(trx, source, row.filing_id, pending, now)
          : await resolveRows(trx, source, row.filing_id, pending, now);
      if (JSON.stringify(resolution.stillPending) !== row.pending_amendment) {
        await setPendingAmendment(trx, source, row.source_doc_id, resolution.stillPending, now.toISOString());
      }
      return resolution;
    });
    if (result.linked) report.linked += 1;
    report.superseded += result.superseded;
    if (result.stillPending !== null) report.pending += 1;
  }
  return report;
}

interface Resolution {
  linked: boolean;
  superseded: number;
  stillPending: PendingAmendment | null;
}

async function resolveReport(
  db: Kysely<Database>,
  source: string,
  filingId: number,
  pending: Extract<PendingAmendment, { kind: 'report' }>,
  now: Date,
): Promise<Resolution> {
  const stamp = now.toISOString();
  const filing = await amendingFiling(db, filingId);
  if (filing.politician_id === null) return { linked: false, superseded: 0, stillPending: pending };
  const candidates = (
    await amendableFilings(db, source, filing.politician_id, pending.reportDate, filingId)
  ).filter(
    // A later amendment of the same report is not what this one amends.
    (candidate) =>
      candidate.is_amendment === 0 ||
      pending.number === null ||
      candidate.amendment_number === null ||
      candidate.amendment_number < pending.number,
  );
  if (candidates.length === 0) return { linked: false, superseded: 0, stillPending: pending };
  const amendmentRows = await liveTradesOfFiling(db, filingId);
  let best: { id: number; rows: ReportTrade[]; pairs: ReturnType<typeof pairRows> } | null = null;
  let tie = false;
  for (const candidate of candidates) {
    const rows = await liveTradesOfFiling(db, candidate.id);
    const pairs = pairRows(amendmentRows.map(comparable), rows.map(comparable), REPORT_ROW_MINIMUM);
    if (best === null || pairs.length > best.pairs.length) {
      best = { id: candidate.id, rows, pairs };
      tie = false;
    } else if (pairs.length === best.pairs.length) tie = true;
  }
  // Two reports of that day equally like the amendment: which one it restates is not knowable.
  if (best === null || tie) return { linked: false, superseded: 0, stillPending: pending };
  await setAmendsFiling(db, filingId, best.id, stamp);
  let superseded = 0;
  for (const pair of best.pairs) {
    const replacement = amendmentRows[pair.left];
    const old = best.rows[pair.right];
    if (!replacement || !old) continue;
    await supersedeTrade(db, old.id, replacement.id, stamp);
    superseded += 1;
  }
  await refreshTradeCounts(db, [best.id, filingId]);
  return { linked: true, superseded, stillPending: null };
}

async function resolveRows(
  db: Kysely<Database>,
  source: string,
  filingId: number,
  pending: Extract<PendingAmendment, { kind: 'rows' }>,
  now: Date,
): Promise<Resolution> {
  const stamp = now.toISOString();
  const filing = await amendingFiling(db, filingId);
  if (filing.politician_id === null) return { linked: false, superseded: 0, stillPending: pending };
  const amended = await tradesByKeys(db, source, pending.keys);
  const earlier = (await liveTradesOfMember(db, source, filing.politician_id, filingId)).filter((trade) =>
    filedBefore(trade, filing),
  );
  const unresolved: string[] = [];
  const amendedFilings = new Map<number, number>();
  let superseded = 0;
  const used = new Set<number>();
  for (const key of pending.keys) {
    const replacement = amended.get(key);
    if (!replacement) continue;
    const original = uniqueBest(
      replacement,
      earlier.filter((trade) => !used.has(trade.id)),
    );
    if (!original) {
      unresolved.push(key);
      continue;
    }
    used.add(original.id);
    await supersedeTrade(db, original.id, replacement.id, stamp);
    superseded += 1;
    if (original.filing_id !== null)
      amendedFilings.set(original.filing_id, (amendedFilings.get(original.filing_id) ?? 0) + 1);
  }
  // The filing it amends is the one most of its amended rows came from.
  const amends = [...amendedFilings].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
  const linked = amends !== undefined && filing.amends_filing_id === null;
  if (linked) await setAmendsFiling(db, filingId, amends, stamp);
  if (amendedFilings.size > 0) await refreshTradeCounts(db, [...amendedFilings.keys(), filingId]);
  return {
    linked,
    superseded,
    stillPending: unresolved.length > 0 ? { kind: 'rows', keys: unresolved } : null,
  };
}

/**
 * Whether a trade's filing came before the amending one. The Clerk numbers e-filed documents in
 * the order they are filed, so two 8-digit DocIDs say it best (a data set's filing date can be a
 * typo); otherwise the filing dates decide, and an unknown date does not exclude.
 */
function filedBefore(
  trade: MemberTrade,
  amending: { source_doc_id: string; filed_date: string | null },
): boolean {
  const electronic = /^\d{8}$/;
  if (
    trade.filing_doc_id &&
    electronic.test(trade.filing_doc_id) &&
    electronic.test(amending.source_doc_id)
  ) {
    return Number(trade.filing_doc_id) < Number(amending.source_doc_id);
  }
  return amending.filed_date === null || trade.filed_date === null || trade.filed_date <= amending.filed_date;
}

/**
 * The earlier trade an amended row replaces: the one agreeing on the most fields (at least 4 of 5);
 * between equals, the one from the latest filing; still equal, none (ambiguous).
 */
function uniqueBest(replacement: ReportTrade, earlier: readonly MemberTrade[]): MemberTrade | null {
  const target = comparable(replacement);
  const scored = earlier
    .map((trade) => ({ trade, score: agreement(target, comparable(trade)) }))
    .filter((entry) => entry.score >= HOUSE_ROW_MINIMUM);
  if (scored.length === 0) return null;
  const top = Math.max(...scored.map((entry) => entry.score));
  const best = scored.filter((entry) => entry.score === top);
  const latest =
    best
      .map((entry) => entry.trade.filed_date ?? '')
      .sort()
      .at(-1) ?? '';
  const winners = best.filter((entry) => (entry.trade.filed_date ?? '') === latest);
  return winners.length === 1 ? (winners[0]?.trade ?? null) : null;
}
