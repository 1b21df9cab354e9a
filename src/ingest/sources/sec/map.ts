// Parsed SEC documents onto storage rows (pure). Lines are numbered in the filing's order:
// non-derivative rows, then derivative rows (Form 4 Tables I and II); 13D/G persons in cover order.
import { addDays } from '../../../domain/dates.js';
import { insiderTitle, OVERLAP_WINDOW_DAYS } from '../../../resources/insider.js';
import { leadLine } from '../../../resources/whale.js';
import type { InsiderTradeWrite, WhalePositionWrite } from '../../../storage/repositories/sec.js';
import type { OwnershipDocument } from './ownership.js';
import type { ScheduleDocument } from './schedule13.js';

export interface FilingContext {
  accession_number: string;
  filed_date: string | null;
  /** The ticker the company identity table (or the filing) gives the issuer. */
  ticker: string | null;
}

export function insiderTradeRows(document: OwnershipDocument, context: FilingContext): InsiderTradeWrite[] {
  const owner = document.owners[0];
  const ordered = [
    ...document.transactions.filter((row) => row.table === 'non_derivative'),
    ...document.transactions.filter((row) => row.table === 'derivative'),
  ];
  return ordered.map((row, index) => ({
    accession_number: context.accession_number,
    line: index + 1,
    form: document.form,
    filed_date: context.filed_date,
    table_kind: row.table,
    issuer_cik: document.issuer.cik,
    issuer_name: document.issuer.name,
    ticker: context.ticker,
    insider_cik: owner?.cik ?? null,
    insider_name:
      document.owners
        .map((each) => each.name ?? '')
        .filter((name) => name !== '')
        .join('; ') || 'Unknown',
    insider_title: owner ? insiderTitle(owner) : null,
    is_director: owner?.is_director ? 1 : 0,
    is_officer: owner?.is_officer ? 1 : 0,
    is_ten_percent_owner: owner?.is_ten_percent_owner ? 1 : 0,
    owners: JSON.stringify(document.owners),
    security: row.security,
    transaction_date: row.date,
    code: row.code,
    shares: row.shares,
    price: row.price,
    total_value:
      row.shares !== null && row.price !== null ? Math.round(row.shares * row.price * 100) / 100 : null,
    acquired_disposed: row.acquired_disposed,
    shares_after: row.shares_after,
    direct_indirect: row.direct_indirect,
    ten_b5_1: row.ten_b5_1 ? 1 : 0,
    footnotes: JSON.stringify(row.footnotes),
    overlap_from: row.date ? addDays(row.date, -OVERLAP_WINDOW_DAYS) : null,
    overlap_to: row.date ? addDays(row.date, OVERLAP_WINDOW_DAYS) : null,
  }));
}

export function whalePositionRows(document: ScheduleDocument, context: FilingContext): WhalePositionWrite[] {
  const lead = leadLine(document.persons);
  // The holding figures (ScheduleHoldings) are stored as the cover page states them.
  return document.persons.map(({ name, cik, type, ...holdings }, index) => ({
    accession_number: context.accession_number,
    line: index + 1,
    form: document.form,
    filed_date: context.filed_date,
    event_date: document.event_date,
    amendment_number: document.amendment_number,
    issuer_cik: document.issuer.cik,
    issuer_cusip: document.issuer.cusip,
    issuer_name: document.issuer.name,
    ticker: context.ticker,
    filer_name: name ?? 'Unknown',
    filer_cik: cik,
    person_type: type,
    ...holdings,
    is_lead: index + 1 === lead ? 1 : 0,
  }));
}
