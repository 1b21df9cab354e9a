// EDGAR as a source: its daily form indexes and current-events feed list filings; each filing's
// full `.txt` submission is the document. EDGAR's fair-access rules are built in: a declared
// User-Agent with a contact, at most 10 requests a second (the client's per-host interval, never
// under 100 ms), and backoff on 429/503 (the shared client retries both, honouring Retry-After).
import type { ListingValidators } from '../../fetch/conditional.js';
import type { HttpClient } from '../../fetch/http-client.js';
import { dailyIndexPath, type EdgarIndexEntry, parseCurrentFeed, parseFormIndex } from './index-file.js';

/** The company directory files the SEC publishes under /files/. */
export const SEC_COMPANY_FILES = ['company_tickers.json', 'company_tickers_exchange.json'] as const;

export class SecConnector {
  readonly baseUrl: string;

  /** `client` declares the contact in its User-Agent and keeps EDGAR's rate (source.ts builds it so). */
  constructor(
    private readonly client: HttpClient,
    baseUrl: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /**
   * The day's filings; an empty list for days EDGAR has no index (weekends, holidays: 404/403).
   * The index is a static file: with `validators` it is asked conditionally, and null says it
   * answered 304 (unchanged since it was last read whole, every filing in it listed already).
   */
  async listDay(
    date: string,
    signal?: AbortSignal,
    validators?: ListingValidators,
  ): Promise<EdgarIndexEntry[] | null> {
    const answer = await this.client.getListing(
      `${this.baseUrl}/Archives/${dailyIndexPath(date)}`,
      validators,
      {
        acceptStatuses: [403, 404],
        signal,
      },
    );
    if (answer.status === 304) return null;
    if (answer.status !== 200) return [];
    return parseFormIndex(answer.body.toString('latin1'));
  }

  /** The latest filings of one form from the current-events feed. */
  async listCurrent(form: string, signal?: AbortSignal): Promise<EdgarIndexEntry[]> {
    const query = new URLSearchParams({ action: 'getcurrent', type: form, count: '100', output: 'atom' });
    const answer = await this.client.get(`${this.baseUrl}/cgi-bin/browse-edgar?${query}`, { signal });
    return parseCurrentFeed(answer.body.toString('utf8'));
  }

  /**
   * The SEC's company directory: every ticker with its issuer's CIK and name, and the same with
   * its exchange (read as `dcledger companies import` reads the files downloaded by hand, and
   * stored under the same names, so that either replaces the other).
   */
  async companyDirectory(
    signal?: AbortSignal,
  ): Promise<Array<{ origin: string; url: string; text: string }>> {
    const files = [];
    for (const origin of SEC_COMPANY_FILES) {
      const url = `${this.baseUrl}/files/${origin}`;
      files.push({ origin, url, text: (await this.client.get(url, { signal })).body.toString('utf8') });
    }
    return files;
  }

  documentUrl(entry: { file_name: string }): string {
    return `${this.baseUrl}/Archives/${entry.file_name.replace(/^\/+/, '')}`;
  }

  async fetchDocument(url: string, signal?: AbortSignal): Promise<Buffer> {
    return (await this.client.get(url, { signal })).body;
  }
}
