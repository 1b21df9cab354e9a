// How the rows of each search source become search documents: one renderer per source table
// (members, trades, filings, insider trades, 13D/G positions, lobbying, contracts), and the
// documents of bills and traded stocks, which are read whole from what changed. The words
// themselves are wording.ts'; documents.ts keeps search_documents current with what these return.
import type { Kysely } from 'kysely';
import { groupedBy } from '../domain/grouped.js';
import { currentSymbolOf, symbolSpans } from '../domain/symbol-changes.js';
import { leadershipRolesOf, type MemberRole } from '../storage/repositories/politician-roles.js';
import type { SearchDocument } from '../storage/repositories/search-index.js';
import {
  billTopics,
  type CommitteeSeatRow,
  changedBillRows,
  committeeSeatsOf,
  listedCompanyNames,
  type SearchSourceName,
  type SearchSourceRow,
  tradedTickerRows,
} from '../storage/repositories/search-sources.js';
import type { Database } from '../storage/schema.js';
import { COMPANY_ALIASES } from './vocabulary/companies.js';
import { CONCEPTS } from './vocabulary/concepts.js';
import { STATE_NAMES } from './vocabulary/places.js';
import {
  CHAMBER_WORDS,
  inConcept,
  jsonNames,
  mergedRoles,
  monthWords,
  nameForms,
  PARTY_WORDS,
  roleWords,
  seatWords,
  words,
} from './wording.js';

const ACTION_WORDS: Record<string, string> = {
  buy: 'bought (purchase)',
  sell: 'sold (sale)',
  exchange: 'exchanged',
  exercise: 'exercised',
  expired: 'expired',
};
/** SEC Form 4 transaction codes in words. */
const INSIDER_CODES: Record<string, string> = {
  P: 'open-market purchase bought',
  S: 'open-market sale sold',
  A: 'grant award',
  M: 'option exercise',
  F: 'tax withholding',
  G: 'gift',
  D: 'disposition to the issuer',
  C: 'conversion',
};

export interface ChangedRow {
  id: number;
  updated: string;
  key: string;
  /** Null when the record left the index (a superseded trade). */
  document: SearchDocument | null;
  ticker?: string | null;
}

/** A source row's search document, keyed as the index knows it. */
function changedRow(
  kind: SearchDocument['kind'],
  key: string,
  row: { id: number; updated_at: string },
  document: Pick<SearchDocument, 'title' | 'subtitle' | 'body' | 'refs'>,
): ChangedRow {
  return {
    id: row.id,
    updated: row.updated_at,
    key,
    document: { doc_key: key, kind, ref_id: String(row.id), ...document },
  };
}

/**
 * A batch of a source's rows with what wording them needs from elsewhere in the database (the
 * members' committee seats and leadership roles): plain data, which wordRows() turns into
 * documents on any thread.
 */
export interface RowsToWord {
  name: SearchSourceName;
  rows: SearchSourceRow<SearchSourceName>[];
  today: string;
  seats?: CommitteeSeatRow[];
  roles?: MemberRole[];
}

/** The batch wordRows() words: the rows, and for members their seats and roles read here. */
export async function rowsToWord(
  db: Kysely<Database>,
  name: SearchSourceName,
  rows: SearchSourceRow<SearchSourceName>[],
  today: string,
): Promise<RowsToWord> {
  if (name !== 'politicians') return { name, rows, today };
  const ids = rows.map((row) => row.id);
  return {
    name,
    rows,
    today,
    seats: await committeeSeatsOf(db, ids),
    roles: await leadershipRolesOf(db, ids),
  };
}

/** The documents of a batch (a removed record's row without one). Pure: no I/O, the same on any thread. */
export function wordRows(batch: RowsToWord): ChangedRow[] {
  return (WORD[batch.name] as Worder<SearchSourceName>)(batch.rows, batch);
}

type Worder<N extends SearchSourceName> = (rows: SearchSourceRow<N>[], batch: RowsToWord) => ChangedRow[];

const WORD: { [N in SearchSourceName]: Worder<N> } = {
  politicians(rows, { seats = [], roles = [], today }) {
    const seatsOf = groupedBy(seats, (seat) => seat.politician_id);
    const rolesOf = groupedBy(roles, (role) => role.politician_id);
    return rows.map((p) => {
      const memberRoles = mergedRoles(rolesOf.get(p.id) ?? []).map((role) => roleWords(role, p.party, today));
      // Subcommittee seats only where the member leads one: plain seats would drown the roles.
      const memberSeats = (seatsOf.get(p.id) ?? [])
        .filter((seat) => !seat.parent_name || /chair|ranking/i.test(seat.title ?? ''))
        .sort((a, b) => Number(Boolean(a.parent_name)) - Number(Boolean(b.parent_name)))
        .map((seat) => seatWords(seat, p.party));
      return changedRow('politicians', `politician:${p.slug}`, p, {
        title: p.name,
        subtitle: [p.party, p.state, p.chamber].filter(Boolean).join(' · '),
        body: words(
          nameForms(p).join('; '),
          PARTY_WORDS[p.party ?? ''],
          p.state,
          STATE_NAMES[p.state ?? ''],
          CHAMBER_WORDS[p.chamber] ?? p.chamber,
          p.in_office ? null : 'former member',
          p.title,
          p.agency,
          memberRoles.join('; '),
          memberSeats.join('; '),
        ),
        refs: { politician_id: p.id, slug: p.slug },
      });
    });
  },
  trades(rows) {
    return rows.map((t) => {
      const key = `trade:${t.source}:${t.source_key}`;
      const ticker = t.ticker === 'N/A' ? null : t.ticker;
      // A trade filed under a renamed company's former symbol answers as the company (FB as META).
      const company = ticker ? currentSymbolOf(ticker, t.transaction_date).symbol : null;
      const row = changedRow('trades', key, t, {
        title: words(`${t.politician_name}:`, t.trade_type, ticker, t.amount_range),
        subtitle: words(t.transaction_date, '·', t.asset_description),
        body: words(
          PARTY_WORDS[t.party ?? ''],
          t.state,
          CHAMBER_WORDS[t.chamber] ?? t.chamber,
          ACTION_WORDS[t.trade_action] ?? t.trade_action,
          t.company,
          ticker ? otherSymbolsOf(ticker, t.transaction_date) : null,
          t.asset_description,
          t.asset_type,
          t.option_type,
          t.sector,
          t.industry,
          t.owner ? `owner ${t.owner}` : null,
          monthWords(t.transaction_date),
          t.comment,
        ),
        refs: {
          trade_id: t.id,
          ...(ticker ? { ticker } : {}),
          ...(company && company !== ticker ? { company } : {}),
          slug: t.slug,
        },
      });
      // A superseded trade leaves the index.
      return { ...row, ticker, document: t.superseded_by === null ? row.document : null };
    });
  },
  filings(rows) {
    return rows.map((f) => {
      const key = `filing:${f.source}:${f.source_doc_id}`;
      const who = f.politician_name ?? f.filer_name ?? 'Unknown filer';
      return changedRow('filings', key, f, {
        title: words(`${who}:`, f.kind, 'filing', f.filed_date),
        subtitle: words(f.source, '·', f.source_doc_id),
        body: words(
          f.kind === 'PTR' ? 'periodic transaction report' : f.kind,
          f.is_amendment ? 'amendment' : null,
          PARTY_WORDS[f.party ?? ''],
          CHAMBER_WORDS[f.chamber ?? ''],
          `${f.trade_count} trades`,
          monthWords(f.filed_date),
        ),
        refs: { filing_id: f.id, ...(f.slug ? { slug: f.slug } : {}) },
      });
    });
  },
  insider_trades(rows) {
    return rows.map((r) => {
      const key = `insider:${r.accession_number}:${r.line}`;
      return changedRow('insider_trades', key, r, {
        title: words(
          `${r.insider_name}:`,
          r.code ? (INSIDER_CODES[r.code] ?? r.code) : null,
          r.ticker ?? r.issuer_name,
        ),
        subtitle: words(r.transaction_date, '·', r.issuer_name, `Form ${r.form}`),
        body: words(
          'corporate insider',
          r.insider_title,
          r.is_director ? 'director' : null,
          r.is_officer ? 'officer' : null,
          r.is_ten_percent_owner ? 'ten percent owner' : null,
          r.issuer_name,
          r.security,
          r.shares !== null ? `${r.shares} shares` : null,
          monthWords(r.transaction_date),
        ),
        refs: { insider_trade_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
      });
    });
  },
  whale_positions(rows) {
    return rows.map((r) => {
      const key = `whale:${r.accession_number}:${r.line}`;
      return changedRow('whale_positions', key, r, {
        title: words(
          `${r.filer_name}:`,
          r.percent_of_class !== null ? `${r.percent_of_class}% of` : 'stake in',
          r.ticker ?? r.issuer_name,
        ),
        subtitle: words(r.filed_date, '·', r.form, '·', r.issuer_name),
        body: words(
          'large shareholder beneficial ownership stake',
          r.form,
          r.issuer_name,
          r.person_type,
          monthWords(r.filed_date),
        ),
        refs: { whale_position_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
      });
    });
  },
  lobbying_filings(rows) {
    return rows.map((r) => {
      const key = `lobbying:${r.filing_uuid}`;
      return changedRow('lobbying', key, r, {
        title: words(`${r.client_name}:`, 'lobbying by', r.registrant_name, r.filing_year),
        subtitle: words(r.filing_type_display, '·', r.ticker),
        body: words(
          'lobbying lobbied lobbyists issue areas',
          // The issue areas first (code and name: "DEF Defense"), before the long descriptions.
          jsonNames(r.issues, ['code', 'name']),
          r.client_description,
          jsonNames(r.government_entities, ['name']),
          jsonNames(r.issues, ['description']),
          r.amount !== null ? `$${Math.round(r.amount)}` : null,
        ).slice(0, 4_000),
        refs: { lobbying_filing_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
      });
    });
  },
  contract_awards(rows) {
    return rows.map((r) => {
      const key = `contract:${r.award_key}`;
      return changedRow('contracts', key, r, {
        title: words(`${r.recipient_name}:`, 'federal contract from', r.awarding_agency),
        subtitle: words(r.award_date, '·', r.award_id, '·', r.ticker),
        body: words(
          'government contract award agency',
          r.awarding_agency,
          r.awarding_sub_agency,
          r.parent_name && r.parent_name !== r.recipient_name ? `parent company ${r.parent_name}` : null,
          r.description,
          r.naics_description,
          r.psc_description,
          r.amount !== null ? `$${Math.round(r.amount)}` : null,
          monthWords(r.award_date),
        ).slice(0, 4_000),
        refs: { contract_award_id: r.id, ...(r.ticker ? { ticker: r.ticker } : {}) },
      });
    });
  },
};

/**
 * The company's other symbols, for a trade filed as `ticker` on `date`: the one it trades under now
 * and the ones it was filed under before (an FB trade says META, a META trade FB), so that asking
 * for any of them finds the trade. Null for a company that never changed its symbol.
 */
function otherSymbolsOf(ticker: string, date: string): string | null {
  const company = currentSymbolOf(ticker, date).symbol;
  const symbols = [
    company,
    ...symbolSpans().flatMap((span) => (span.company === company ? [span.filed] : [])),
  ];
  const others = [...new Set(symbols)].filter((symbol) => symbol !== ticker);
  return others.length === 0 ? null : others.join(' ');
}

/**
 * The symbols a company was filed under before it took this one, each with the table's words for the
 * change ("FB Meta Platforms, Inc. (formerly Facebook, Inc.)"), so that typing the old symbol or
 * name finds the company as it trades now.
 */
function formerSymbolWords(symbol: string): string | null {
  const former = symbolSpans()
    .filter((span) => span.company === symbol)
    .map((span) =>
      words(
        span.filed,
        currentSymbolOf(span.filed, span.from ?? '')
          .changes.map((change) => change.company)
          .join('; '),
      ),
    );
  return former.length === 0 ? null : `formerly ${former.join('; ')}`;
}

/** One document per traded stock: the company, its other names, taxonomy, products, how often it was traded. */
export async function tickerDocuments(
  db: Kysely<Database>,
  touched: ReadonlySet<string>,
): Promise<SearchDocument[]> {
  const rows = await tradedTickerRows(db, touched);
  const names = groupedBy(
    await listedCompanyNames(
      db,
      rows.map((row) => row.ticker),
    ),
    (row) => row.ticker,
  );
  return rows.map((t) => {
    const otherNames = [...new Set((names.get(t.ticker) ?? []).map((row) => row.name))].filter(
      (name) => name !== t.company,
    );
    const concepts = CONCEPTS.filter((concept) => inConcept(concept, t)).map((concept) =>
      concept.phrases.join(' '),
    );
    return {
      doc_key: `ticker:${t.ticker}`,
      kind: 'tickers' as const,
      ref_id: t.ticker,
      title: t.ticker,
      subtitle: t.company ?? t.description ?? '',
      body: words(
        t.company,
        otherNames.slice(0, 6).join('; '),
        COMPANY_ALIASES[t.ticker],
        formerSymbolWords(t.ticker),
        t.description,
        [...new Set([t.sector, t.gics_sector, t.nasdaq_sector])].join(' '),
        [...new Set([t.industry, t.gics_sub_industry, t.nasdaq_industry])].join(' '),
        concepts.join('; '),
        `traded ${Number(t.trade_count)} times by ${Number(t.member_count)} members`,
      ),
      refs: { ticker: t.ticker },
    };
  });
}

export async function billDocuments(db: Kysely<Database>): Promise<ChangedRow[]> {
  const bills = await changedBillRows(db);
  const topics = await billTopics(
    db,
    bills.map((bill) => bill.id),
  );
  const subjects = groupedBy(topics.subjects, (row) => row.bill_id);
  const committees = groupedBy(topics.committees, (row) => row.bill_id);
  return bills.map((b) => ({
    id: 0,
    updated: b.updated_at,
    key: `bill:${b.id}`,
    document: {
      doc_key: `bill:${b.id}`,
      kind: 'bills',
      ref_id: b.id,
      title: b.short_title ?? b.title,
      subtitle: words(b.id, '·', b.policy_area),
      body: words(
        'bill legislation',
        b.short_title ? b.title : null,
        b.policy_area,
        b.latest_action_text,
        `${b.congress}th Congress`,
        monthWords(b.introduced_date),
        [
          ...new Set((committees.get(b.id) ?? []).map((row) => `${row.chamber ?? ''} ${row.committee_name}`)),
        ].join('; '),
        (subjects.get(b.id) ?? [])
          .map((row) => row.subject)
          .join('; ')
          .slice(0, 3_000),
      ),
      refs: { bill_id: b.id },
    },
  }));
}
