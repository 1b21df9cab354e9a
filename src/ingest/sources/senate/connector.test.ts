// The eFD connector on a paper filing: it fetches the filing's page, then each page image the page
// shows, and hands them on as one bundle that the parser sends to the OCR stage. The images are
// CONSTRUCTED pages of the Senate paper form (test-support/senate-paper-form.ts, drawn at test
// time): no real Senate page images are recorded. The recorded paper rows have no page at all.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startReplay, testHttpClient } from '../../../test-support/replay.js';
import { senatePaperPage } from '../../../test-support/senate-paper-form.js';
import { DocumentTooLargeError } from '../../fetch/http-client.js';
import { decodePageImages, isPageImages } from '../../ocr/page-images.js';
import type { ReplayServer } from '../../replay/server.js';
import { UnfetchableDocumentError } from '../connector.js';
import { SenateConnector } from './connector.js';
import { paperImageUrls } from './ptr-page.js';
import type { SenateReplay } from './replay.js';

const dataDir = inject('dataDir');
const NOW = new Date('2026-06-01T12:00:00Z');
const PAPER_UUID = 'c0de5e11-7e57-4a11-8b00-000000000001';
/** A paper PTR row of the recorded Arkansas search index (its page was not recorded). */
const RECORDED_PAPER_UUID = '9df8ad03-172a-43eb-80f4-b6f311b2aa41';

const http = (maxBytes?: number) => testHttpClient(maxBytes === undefined ? {} : { maxBytes });

describe('paper filing page images', () => {
  it('takes each img.filingImage src, resolved against the page, in page order', () => {
    // The shape of the real eFD paper page (the media host serves the images).
    const page = `<!DOCTYPE HTML><html><head><title>eFD: View Paper Report</title></head><body>
      <h1>Periodic Transaction Report</h1><h2 class="filedReport">The Honorable John Boozman (Boozman, John)</h2>
      <img src="/static/img/logo.png" alt="seal">
      <img class="filingImage" src="https://efd-media-public.senate.gov/media/2019/05/000/0/0/page1.gif">
      <img alt="page 2" class="img-responsive filingImage" src='../../media/page2.gif?a=1&amp;b=2'>
      <img class="filingImage"></body></html>`;
    expect(paperImageUrls(page, 'https://efdsearch.senate.gov/search/view/paper/abc/')).toEqual([
      'https://efd-media-public.senate.gov/media/2019/05/000/0/0/page1.gif',
      'https://efdsearch.senate.gov/search/view/media/page2.gif?a=1&b=2',
    ]);
  });
  it('takes no image from another site, another scheme or an internal address', () => {
    const page = [
      'https://evil.example/p.gif',
      'http://efd-media-public.senate.gov/p.gif',
      'http://127.0.0.1/p.gif',
      'https://efd-media-public.senate.gov:8443/p.gif',
    ]
      .map((src) => `<img class="filingImage" src="${src}">`)
      .join('');
    expect(paperImageUrls(page, 'https://efdsearch.senate.gov/search/view/paper/abc/')).toEqual([]);
    // The replay server: the page's own host only.
    const local =
      '<img class="filingImage" src="/media/1.png"><img class="filingImage" src="http://127.0.0.2/2.png">' +
      '<img class="filingImage" src="http://127.0.0.1:9999/3.png">';
    expect(paperImageUrls(local, 'http://127.0.0.1:8080/search/view/paper/abc/')).toEqual([
      'http://127.0.0.1:8080/media/1.png',
    ]);
  });
});

describe.skipIf(!dataDir)(
  'the eFD connector fetches a paper filing (replay server, CONSTRUCTED pages)',
  () => {
    let server: ReplayServer;
    const images = [
      senatePaperPage('Jane Q. Example', [
        { date: '01/14/2026', owner: 'Self', ticker: 'AAPL', asset: 'Apple Inc.', type: 0, amounts: [1] },
      ]),
      senatePaperPage('Jane Q. Example', [], 2),
    ];

    beforeAll(async () => {
      server = await startReplay(dataDir ?? '');
      server.routesOf<SenateReplay>('senate').addPaperFiling({
        uuid: PAPER_UUID,
        firstName: 'Jane',
        lastName: 'Example',
        filedDate: '2026-02-10',
        images,
      });
    });
    afterAll(async () => server?.close());

    const listPaper = async (connector: SenateConnector) => {
      const listing = await connector.list('2026-01-01', NOW);
      expect(listing.documents.map((document) => document.docId)).toEqual([PAPER_UUID]);
      const [document] = listing.documents;
      if (!document) throw new Error('no paper filing listed');
      return document;
    };

    it('fetches the page and its images, and the parser sends the bundle to OCR', async () => {
      const connector = new SenateConnector(http(), server.url);
      const document = await listPaper(connector);
      expect(document).toMatchObject({ isPaper: true, known: null });
      const mark = server.requests.length;
      const fetched = await connector.fetchDocument(document);
      expect(server.requests.slice(mark).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        `GET /search/view/paper/${PAPER_UUID}/ 200`,
        `GET /media/paper/${PAPER_UUID}/1.png 200`,
        `GET /media/paper/${PAPER_UUID}/2.png 200`,
      ]);
      expect(isPageImages(fetched.body)).toBe(true);
      expect(decodePageImages(fetched.body).map((image) => Buffer.from(image))).toEqual(
        images.map((image) => Buffer.from(image)),
      );
      const parsed = await connector.parse(document, fetched.body, {
        pdfText: () => Promise.reject(new Error('a bundle of images has no PDF text')),
      });
      expect(parsed).toMatchObject({
        source: 'senate_efd',
        kind: 'senate_paper_ptr_images',
        status: 'needs_ocr',
        reason: 'eFD paper filing: 2 page image(s), read by OCR',
        filing: {
          is_paper: true,
          filed_date: '2026-02-10',
          filer_last_name: 'Example',
          filer_first_name: 'Jane',
        },
        trades: [],
      });
    });

    it('keeps the images of one filing within the source document limit', async () => {
      const largest = Math.max(...images.map((image) => image.length));
      const total = images.reduce((sum, image) => sum + image.length, 0);
      // Each image alone fits, both together do not.
      const connector = new SenateConnector(http(Math.max(largest, total - 1)), server.url);
      const document = await listPaper(connector);
      await expect(connector.fetchDocument(document)).rejects.toBeInstanceOf(DocumentTooLargeError);
    });

    it('says a recorded paper row whose page answers 404 is a paper filing whose images could not be fetched', async () => {
      const connector = new SenateConnector(http(), server.url);
      const listing = await connector.list('2016-01-01', NOW);
      const recorded = listing.documents.find((document) => document.docId === RECORDED_PAPER_UUID);
      expect(recorded).toMatchObject({ isPaper: true, known: null });
      if (!recorded) throw new Error('the recorded paper row is not listed');
      const error = await connector.fetchDocument(recorded).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UnfetchableDocumentError);
      expect((error as UnfetchableDocumentError).known).toEqual({
        status: 'paper',
        reason: `eFD paper filing (${server.url}/search/view/paper/${RECORDED_PAPER_UUID}/): its page answered 404, so its page images could not be fetched for OCR; its transactions need manual entry`,
      });
    });
  },
);
