// The Senate LDA as a record source. Two public forms of the same filings:
//   REST API    GET <base>/api/v1/filings/?filing_dt_posted_after=<since>&ordering=dt_posted&page_size=N
//               pages {count, next, previous, results}, followed through `next`, each asked
//               conditionally (If-None-Match / If-Modified-Since) with what it last answered;
//   bulk files  GET <base>/downloads/ lists the Senate's quarterly download files (XML, or zips of
//               XML parts), each read whole; filings posted before `since` are left out.
// `next` links name the public host (lda.gov, lda.senate.gov); they are followed on the configured
// base so that a replay server or a mirror serves the whole walk.
import { unzipSync } from 'fflate';
import type { ListingValidators } from '../../fetch/conditional.js';
import type { FetchedDocument, HttpClient } from '../../fetch/http-client.js';
import { MAX_PAGES, type RecordConnector, type RecordPage, RecordSourceError } from '../record-connector.js';
import { parseLdaFilingsPage } from './api.js';
import { parseLdaBulkXml } from './bulk-xml.js';
import { LdaFormatError, type LobbyingFilingRecord } from './filing.js';

export const LDA_FILINGS_PATH = '/api/v1/filings/';
export const LDA_DOWNLOADS_PATH = '/downloads/';

export class LdaConnector implements RecordConnector<LobbyingFilingRecord> {
  private readonly base: string;

  constructor(
    private readonly http: HttpClient,
    baseUrl: string,
    private readonly pageSize = 25,
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  async *pages(
    since: string,
    _now: Date,
    signal?: AbortSignal,
    validators?: ListingValidators,
  ): AsyncIterable<RecordPage<LobbyingFilingRecord>> {
    // A filing can be in the API and a bulk file, or in two bulk files: the first reading wins.
    const seen = new Set<string>();
    for await (const page of this.allPages(since, signal, validators)) {
      const records = page.records.filter((record) => !seen.has(record.filingUuid));
      const skipped = page.records
        .filter((record) => seen.has(record.filingUuid))
        .map((record) => ({ id: record.filingUuid, reason: 'read already in this run' }));
      for (const record of records) seen.add(record.filingUuid);
      yield { ...page, records, skipped: [...page.skipped, ...skipped] };
    }
  }

  private async *allPages(
    since: string,
    signal?: AbortSignal,
    validators?: ListingValidators,
  ): AsyncIterable<RecordPage<LobbyingFilingRecord>> {
    yield* this.apiPages(since, signal, validators);
    yield* this.bulkFiles(since, signal, validators);
  }

  /**
   * The API's pages, each asked conditionally with `validators`. A 304 says the page (its filings
   * and its `next` link alike) did not change since a completed run read it whole; its filings are
   * stored already, and the walk goes on to the page after it by number, since the link is in the
   * body a 304 leaves out. Past the last page the API answers 404, which ends such a walk.
   */
  private async *apiPages(
    since: string,
    signal?: AbortSignal,
    validators?: ListingValidators,
  ): AsyncIterable<RecordPage<LobbyingFilingRecord>> {
    const query = new URLSearchParams({
      filing_dt_posted_after: since,
      ordering: 'dt_posted',
      page_size: String(this.pageSize),
    });
    let url: string | null = canonicalUrl(`${this.base}${LDA_FILINGS_PATH}?${query}`);
    let guessed = false;
    const seen = new Set<string>();
    for (let n = 0; url && n < MAX_PAGES; n++) {
      if (seen.has(url)) throw new RecordSourceError(`the LDA API's next link loops back to ${url}`);
      seen.add(url);
      const document: FetchedDocument = await this.http.getListing(url, validators, {
        signal,
        acceptStatuses: guessed ? [404] : [],
      });
      if (document.status === 404) return;
      if (document.status === 304) {
        url = followingPage(url);
        guessed = true;
        continue;
      }
      guessed = false;
      let page: ReturnType<typeof parseLdaFilingsPage>;
      try {
        page = parseLdaFilingsPage(document.body.toString('utf8'));
      } catch (error) {
        if (error instanceof LdaFormatError) throw new RecordSourceError(`${url}: ${error.message}`);
        throw error;
      }
      yield { label: url, bytes: document.body, records: page.filings, skipped: [], total: page.count };
      url = page.next ? this.onBase(page.next) : null;
    }
  }

  /**
   * The bulk files: static downloads of whole quarters, asked conditionally with `validators` (a
   * 304 says the file did not change since a completed run read it whole, so its filings are
   * stored already and it is neither downloaded nor parsed again). The downloads page itself is
   * small and read every time: its links are what tells which files to ask for.
   */
  private async *bulkFiles(
    since: string,
    signal?: AbortSignal,
    validators?: ListingValidators,
  ): AsyncIterable<RecordPage<LobbyingFilingRecord>> {
    const listingUrl = `${this.base}${LDA_DOWNLOADS_PATH}`;
    const listing = await this.http.get(listingUrl, { signal, acceptStatuses: [404] });
    if (listing.status === 404) return;
    for (const href of downloadLinks(listing.body.toString('utf8'))) {
      const url = new URL(href, listingUrl).toString();
      const document = await this.http.getListing(url, validators, { signal });
      if (document.status === 304) continue;
      for (const part of xmlParts(url, document.body)) {
        let filings: LobbyingFilingRecord[];
        try {
          filings = parseLdaBulkXml(part.bytes);
        } catch (error) {
          if (error instanceof LdaFormatError) throw new RecordSourceError(`${part.label}: ${error.message}`);
          throw error;
        }
        const recent = filings.filter((filing) => (filing.postedAt ?? '').slice(0, 10) >= since);
        const skipped = filings
          .filter((filing) => !recent.includes(filing))
          .map((filing) => ({
            id: filing.filingUuid,
            reason: `posted ${filing.postedAt ?? 'on an unknown date'}, before ${since}`,
          }));
        yield { label: part.label, bytes: part.bytes, records: recent, skipped, total: null };
      }
    }
  }

  /** A link the API gives, moved onto the configured base (same path and query). */
  private onBase(link: string): string {
    const parsed = new URL(link, this.base);
    if (!parsed.pathname.startsWith(LDA_FILINGS_PATH)) {
      throw new RecordSourceError(`the LDA API's next link leaves the filings list: ${link}`);
    }
    return canonicalUrl(`${this.base}${parsed.pathname}${parsed.search}`);
  }
}

/**
 * A page URL with its query parameters in name order, so that the URL a link names and the one
 * `followingPage` builds are the same key for the validators kept of it.
 */
function canonicalUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.sort();
  return parsed.toString();
}

/** The URL of the page after `url` (a URL without a page number is page 1). */
function followingPage(url: string): string {
  const parsed = new URL(url);
  const page = Number(parsed.searchParams.get('page') ?? '1');
  if (!Number.isInteger(page))
    throw new RecordSourceError(`the LDA API page number of ${url} is not a number`);
  parsed.searchParams.set('page', String(page + 1));
  return canonicalUrl(parsed.toString());
}

/** The .xml and .zip links of the downloads page, in page order, once each. */
export function downloadLinks(html: string): string[] {
  const links = [...html.matchAll(/href\s*=\s*["']([^"']+\.(?:xml|zip))["']/gi)].map((m) => m[1] ?? '');
  return [...new Set(links.filter(Boolean))];
}

function xmlParts(url: string, bytes: Buffer): Array<{ label: string; bytes: Buffer }> {
  if (!/\.zip$/i.test(new URL(url).pathname)) return [{ label: url, bytes }];
  const entries = unzipSync(new Uint8Array(bytes));
  return Object.entries(entries)
    .filter(([name]) => /\.xml$/i.test(name))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, content]) => ({ label: `${url}#${name}`, bytes: Buffer.from(content) }));
}
