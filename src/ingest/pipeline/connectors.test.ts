// The connectors against the replay server on 127.0.0.1: the sites' flows (eFD terms and CSRF,
// session expiry), the recorded indexes, and retries when the server fails.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startReplay, testHttpClient } from '../../test-support/replay.js';
import { FetchError, type HttpClient } from '../fetch/http-client.js';
import type { ReplayServer } from '../replay/server.js';
import { HouseConnector } from '../sources/house/connector.js';
import { OgeConnector } from '../sources/oge/connector.js';
import { SenateConnector } from '../sources/senate/connector.js';

const dataDir = inject('dataDir');
const NOW = new Date('2026-06-01T12:00:00Z');

function http(retries = 2): HttpClient {
  return testHttpClient({ retries });
}

describe.skipIf(!dataDir)('connectors against the replay server', () => {
  let server: ReplayServer;
  const since = '2016-01-01';

  beforeAll(async () => {
    server = await startReplay(dataDir ?? '');
  });
  afterAll(async () => server?.close());

  const requestsSince = (mark: number) =>
    server.requests.slice(mark).map((r) => `${r.method} ${r.path} ${r.status}`);

  it('Senate: agrees to the terms with the CSRF token, then pages through the search', async () => {
    const mark = server.requests.length;
    const listing = await new SenateConnector(http(), server.url).list(since, NOW);
    expect(requestsSince(mark)).toEqual([
      'GET /search/home/ 200',
      'POST /search/home/ 302',
      'GET /search/ 200',
      'POST /search/report/data/ 200',
      'POST /search/report/data/ 200',
      'POST /search/report/data/ 200',
    ]);
    expect(listing.documents).toHaveLength(281);
    const paper = listing.documents.filter((document) => document.isPaper);
    expect(paper).toHaveLength(32);
    for (const document of paper) {
      // Listed to be fetched: the connector reads the page for its images (the OCR stage's input).
      expect(document).toMatchObject({ known: null });
      expect(document.url).toBe(`${server.url}/search/view/paper/${document.docId}/`);
      expect(document.filer?.name).toBe('John Boozman');
    }
    const wyden = listing.documents.filter(
      (document) => /Wyden/.test(document.filer?.name ?? '') && document.filedDate === '2020-06-04',
    );
    expect(wyden).toEqual([
      expect.objectContaining({
        isAmendment: true,
        title: 'Periodic Transaction Report for 06/01/2020 (Amendment 1)',
      }),
    ]);
    const later = await new SenateConnector(http(), server.url).list('2021-01-01', NOW);
    expect(later.documents.length).toBeGreaterThan(50);
    expect(later.documents.every((document) => (document.filedDate ?? '') >= '2021-01-01')).toBe(true);
  });

  it('Senate: the site refuses the search without the agreement session or a valid CSRF token', async () => {
    const bare = http(0);
    const home = await bare.get(`${server.url}/search/home/`);
    expect(home.body.toString()).toContain('csrfmiddlewaretoken');
    const host = new URL(server.url).host;
    const token = bare.cookie(host, 'csrftoken') ?? '';
    // Without agreeing: the search answers with the agreement page (a redirect), not JSON.
    const unagreed = await bare.request(`${server.url}/search/report/data/`, {
      method: 'POST',
      form: { start: '0', length: '10', report_types: '[11]', csrfmiddlewaretoken: token },
    });
    expect(unagreed.url).toMatch(/\/search\/home\/\?next=|\/search\/home\/$/);
    expect(unagreed.body.toString()).toContain('prohibition_agreement');
    // Agreeing with a forged token is refused.
    const forged = await bare.request(`${server.url}/search/home/`, {
      method: 'POST',
      form: { csrfmiddlewaretoken: 'forged', prohibition_agreement: '1' },
      acceptStatuses: [403],
    });
    expect(forged.status).toBe(403);
  });

  it('Senate: agrees again when the session lapses and fetches the page', async () => {
    const connector = new SenateConnector(http(), server.url);
    const listing = await connector.list('2021-08-01', NOW);
    const document = listing.documents.find((entry) => entry.url !== null);
    if (!document) throw new Error('no electronic report listed');
    server.expireSessions();
    const mark = server.requests.length;
    const page = await connector.fetchDocument(document);
    expect(page.body.toString()).toContain('Periodic Transaction Report');
    expect(requestsSince(mark)).toEqual([
      `GET /search/view/ptr/${document.docId}/ 302`,
      'GET /search/home/ 200',
      'GET /search/home/ 200',
      'POST /search/home/ 302',
      'GET /search/ 200',
      `GET /search/view/ptr/${document.docId}/ 200`,
    ]);
  });

  it('House: reads the yearly index zips, PTRs only, and says which years have none yet', async () => {
    const listing = await new HouseConnector(http(), server.url).list(since, NOW);
    expect(listing.documents).toHaveLength(59);
    expect(listing.notes).toEqual([
      `no 2026 index yet (${server.url}/public_disc/financial-pdfs/2026FD.zip answered 404)`,
    ]);
    const scanned = listing.documents
      .filter((document) => document.isPaper)
      .map((document) => document.docId);
    expect(scanned.sort()).toEqual([
      '8220747',
      '8220750',
      '8220796',
      '8220809',
      '8220828',
      '8220834',
      '8220845',
    ]);
    const pelosi = listing.documents.find((document) => document.docId === '20022260');
    expect(pelosi).toMatchObject({
      url: `${server.url}/public_disc/ptr-pdfs/2023/20022260.pdf`,
      filer: { name: 'Nancy Pelosi', seat: 'CA12' },
      filedDate: '2023-01-12',
    });
    const recent = await new HouseConnector(http(), server.url).list('2025-06-01', NOW);
    expect(recent.documents.every((document) => (document.filedDate ?? '') >= '2025-06-01')).toBe(true);
    expect(recent.documents.length).toBeLessThan(listing.documents.length);
  });

  it('House: retries a 5xx with backoff and gives up with the URL after its retries', async () => {
    const connector = new HouseConnector(http(2), server.url);
    const path = '/public_disc/financial-pdfs/2025FD.zip';
    server.failNext(path, 2, 503);
    const mark = server.requests.length;
    const listing = await connector.list('2025-01-01', NOW);
    expect(listing.documents.length).toBeGreaterThan(40);
    expect(requestsSince(mark).filter((line) => line.includes('2025FD'))).toEqual([
      `GET ${path} 503`,
      `GET ${path} 503`,
      `GET ${path} 200`,
    ]);
    server.failNext(path, 3, 502);
    await expect(connector.list('2025-01-01', NOW)).rejects.toThrow(FetchError);
    await expect(connector.list('2025-01-01', NOW)).resolves.toBeTruthy();
  });

  it('OGE: lists the PDFs of the listing page and fetches them', async () => {
    const connector = new OgeConnector(http(), server.url, '/278t/');
    const listing = await connector.list(since, NOW);
    expect(listing.documents).toHaveLength(104);
    expect(listing.notes[0]).toMatch(/no dates/);
    const trump = listing.documents.find(
      (document) => document.docId === 'Donald J. Trump 11.14.2025 278-T.pdf',
    );
    if (!trump) throw new Error('listing lacks the Trump 278-T');
    const pdf = await connector.fetchDocument(trump);
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
