// EDGAR as a source: its daily form indexes and current-events feed list filings; each filing's
// full `.txt` submission is the document. EDGAR's fair-access rules are built in: a declared
// User-Agent with a contact, at most 10 requests a second (the client's per-host interval, never
// under 100 ms), and backoff on 429/503 (the shared client retries both, honouring Retry-After).
import type { IngestConfig } from '../../../config.js';
import { HttpClient } from '../../fetch/http-client.js';
import { dailyIndexPath, type EdgarIndexEntry, parseCurrentFeed, parseFormIndex } from './index-file.js';

export interface SecConnectorOptions {
  baseUrl: string;
  userAgent: string;
  contact: string | undefined;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  minIntervalMs: number;
}

export class SecConnector {
  readonly client: HttpClient;
  readonly baseUrl: string;

  constructor(options: SecConnectorOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.client = new HttpClient({
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      backoffMs: options.backoffMs,
      // The config never goes under 100 ms (10 requests a second); tests against 127.0.0.1 may.
      minIntervalMs: options.minIntervalMs,
      userAgent: options.contact ? `${options.userAgent} ${options.contact}` : options.userAgent,
    });
  }

  /** The day's filings; an empty list for days EDGAR has no index (weekends, holidays: 404/403). */
  async listDay(date: string, signal?: AbortSignal): Promise<EdgarIndexEntry[]> {
    const answer = await this.client.get(`${this.baseUrl}/Archives/${dailyIndexPath(date)}`, {
      acceptStatuses: [403, 404],
      signal,
    });
    if (answer.status !== 200) return [];
    return parseFormIndex(answer.body.toString('latin1'));
  }

  /** The latest filings of one form from the current-events feed. */
  async listCurrent(form: string, signal?: AbortSignal): Promise<EdgarIndexEntry[]> {
    const query = new URLSearchParams({ action: 'getcurrent', type: form, count: '100', output: 'atom' });
    const answer = await this.client.get(`${this.baseUrl}/cgi-bin/browse-edgar?${query}`, { signal });
    return parseCurrentFeed(answer.body.toString('utf8'));
  }

  documentUrl(entry: { file_name: string }): string {
    return `${this.baseUrl}/Archives/${entry.file_name.replace(/^\/+/, '')}`;
  }

  async fetchDocument(url: string, signal?: AbortSignal): Promise<Buffer> {
    return (await this.client.get(url, { signal })).body;
  }
}

export function secConnectorFromConfig(config: IngestConfig, baseUrl?: string): SecConnector {
  return new SecConnector({
    baseUrl: baseUrl ?? config.secBaseUrl,
    userAgent: config.userAgent,
    contact: config.secContact,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    backoffMs: config.backoffMs,
    minIntervalMs: config.secMinIntervalMs,
  });
}
