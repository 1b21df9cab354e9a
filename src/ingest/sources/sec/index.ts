// EDGAR's daily indexes as a listing of documents: the days from `since` to today (and, asked for,
// the current-events feed), the chosen forms, each filing listed once by accession number in
// sec_filings before any is fetched, so an interrupted run resumes with what it listed.
import { addDays, todayUtc } from '../../../domain/dates.js';
import {
  closeSecFetch,
  knownSecAccessions,
  listSecFiling,
  pendingSecFilings,
} from '../../../storage/repositories/sec.js';
import type { RecordIndex } from '../source-definition.js';
import type { SecConnector } from './connector.js';
import { type EdgarIndexEntry, formMatcher } from './index-file.js';
import { parseSecDocument, type SecParse } from './parse-sec.js';
import type { SecDocumentInput } from './store.js';

/** Fetches of one filing before it is left alone. */
const MAX_ATTEMPTS = 5;

export interface SecListed {
  /** The accession number. */
  id: string;
  url: string | null;
  form: string;
  filed_date: string | null;
}

/** A fetched filing: what the store needs, and its parse. */
export interface SecRecord {
  input: SecDocumentInput;
  parsed: SecParse;
}

export function secIndex(
  connector: SecConnector,
  forms: readonly string[],
  current: boolean,
): RecordIndex<SecListed, SecRecord> {
  const wanted = formMatcher(forms);
  const listed = (entries: readonly EdgarIndexEntry[]): SecListed[] => {
    // A Form 4 is listed under its issuer and under each reporting owner: one filing per accession.
    const seen = new Set<string>();
    return entries.flatMap((entry) => {
      if (!wanted(entry.form) || seen.has(entry.accession_number)) return [];
      seen.add(entry.accession_number);
      return [
        {
          id: entry.accession_number,
          url: connector.documentUrl(entry),
          form: entry.form,
          filed_date: entry.filed_date,
        },
      ];
    });
  };
  return {
    async *list(since, now, signal, validators) {
      const today = todayUtc(now);
      for (let day = since; day <= today; day = addDays(day, 1)) {
        if (signal?.aborted) return;
        // null: the day's index answered 304, every filing in it is listed already.
        yield { label: day, documents: listed((await connector.listDay(day, signal, validators)) ?? []) };
      }
      if (!current) return;
      for (const form of forms) {
        if (signal?.aborted) return;
        yield { label: `current ${form}`, documents: listed(await connector.listCurrent(form, signal)) };
      }
    },
    async unseen(db, documents) {
      const known = await knownSecAccessions(
        db,
        documents.map((document) => document.id),
      );
      return documents.filter((document) => !known.has(document.id));
    },
    async record(db, document, now) {
      await listSecFiling(
        db,
        {
          accession_number: document.id,
          form: document.form,
          filed_date: document.filed_date,
          period_of_report: null,
          issuer_cik: null,
          issuer_name: null,
          status: 'listed',
          reason: null,
          url: document.url,
          content_hash: null,
        },
        now.toISOString(),
      );
    },
    async owed(db) {
      return (await pendingSecFilings(db, MAX_ATTEMPTS)).map((filing) => ({
        id: filing.accession_number,
        url: filing.url,
        form: filing.form,
        filed_date: filing.filed_date,
      }));
    },
    async fetch(document, signal) {
      if (!document.url) throw new Error(`SEC filing ${document.id} has no URL`);
      return connector.fetchDocument(document.url, signal);
    },
    async failed(db, document, reason, now) {
      await closeSecFetch(db, document.id, 'failed', reason, now.toISOString());
    },
    parse(document, bytes) {
      const text = bytes.toString('utf8');
      return {
        input: {
          accession_number: document.id,
          form: document.form,
          filed_date: document.filed_date,
          url: document.url,
          content_hash: null,
          text,
        },
        parsed: parseSecDocument(text),
      };
    },
    async duplicate(db, document, first, now) {
      await closeSecFetch(
        db,
        document.id,
        'unsupported',
        `the same document, byte for byte, as ${first}: its lines are stored there, once`,
        now.toISOString(),
      );
    },
  };
}
