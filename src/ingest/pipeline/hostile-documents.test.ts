// Documents a site should not serve, and how a run survives them: one far larger than the source's
// limit, one that kills the PDF reader, and one that repeats another byte for byte under a second
// name. Each fails or is recognised alone; the documents after it are read. The site is a local
// server on 127.0.0.1 listing real OGE 278-T PDFs (read from ../shared/data) beside constructed ones.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { congressPath } from '../../test-support/documents.js';
import { FIXTURE_NOW } from '../../test-support/real-data.js';
import type { IngestReport } from './report.js';
import { ingestSources } from './setup.js';

const dataDir = inject('dataDir');
const BEDFORD = 'Bryan-Bedford-09.02.2025-278T.pdf';
const WRIGHT = 'Christopher-A-Wright-03.19.2025-278T.pdf';
const MB = 1024 * 1024;

type Document = (response: ServerResponse) => void;

/** A listing at /278t/ of the documents, each served at /278t/<name>. */
class DocumentSite {
  readonly documents = new Map<string, Document>();
  readonly fetched: string[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    const server = createServer((request, response) => {
      const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
      if (path === '/278t/') {
        const links = [...this.documents.keys()]
          .map((name) => `<li><a href="/278t/${encodeURIComponent(name)}">${name}</a></li>`)
          .join('\n');
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<ul>${links}</ul>`);
        return;
      }
      const name = path.slice('/278t/'.length);
      const document = this.documents.get(name);
      if (!document) {
        response.writeHead(404).end('not found');
        return;
      }
      this.fetched.push(name);
      document(response);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}

const pdfOf =
  (bytes: Buffer): Document =>
  (response) =>
    response.writeHead(200, { 'content-type': 'application/pdf' }).end(bytes);

/** Constructed: "%PDF-1.4" and then junk for as long as the client keeps reading (up to 1 GB). */
const endlessPdf: Document = (response) => {
  response.writeHead(200, { 'content-type': 'application/pdf' });
  response.write('%PDF-1.4\n');
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (!response.destroyed && sent < 1024 * MB) {
      sent += chunk.length;
      if (!response.write(chunk)) return;
    }
    response.end();
  };
  response.on('drain', pump);
  pump();
};

/**
 * Constructed: a one-page PDF of a few kilobytes whose compressed content stream shows `megabytes`
 * of text, which the PDF reader turns into far more memory than that.
 */
function textBombPdf(megabytes: number): Buffer {
  const text = Buffer.concat([
    Buffer.from('BT /F1 12 Tf 72 712 Td ('),
    Buffer.alloc(megabytes * MB, 0x41),
    Buffer.from(') Tj ET'),
  ]);
  const stream = deflateSync(text, { level: 9 });
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
      stream,
      Buffer.from('\nendstream'),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = Buffer.from('%PDF-1.4\n');
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf = Buffer.concat([
      pdf,
      Buffer.from(`${index + 1} 0 obj\n`),
      Buffer.from(object),
      Buffer.from('\nendobj\n'),
    ]);
  });
  const xref = pdf.length;
  const table = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  return Buffer.concat([
    pdf,
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  ]);
}

describe.skipIf(!dataDir)('documents that are too large, kill the PDF reader, or repeat another', () => {
  const real = (name: string) =>
    readFileSync(congressPath(dataDir ?? '', 'raw-oge', 'open-cabinet-278t', 'pdfs', name));
  let site: DocumentSite;
  let url: string;
  let store: TestStore;
  let archiveDir: string;
  let readerMemoryMb = 512;

  beforeAll(async () => {
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-hostile-'));
  });
  afterAll(() => {
    rmSync(archiveDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await site?.close();
    await store?.dispose();
  });

  async function open(documents: Record<string, Document>, memoryMb = 512) {
    site = new DocumentSite();
    for (const [name, document] of Object.entries(documents)) site.documents.set(name, document);
    url = await site.start();
    store = await openTestStore();
    readerMemoryMb = memoryMb;
  }

  /** `dcledger ingest oge` against the site, with the size limit and the reader's memory set as an operator would. */
  function run(limitMb: number): Promise<IngestReport> {
    const config = readIngest({
      DCLEDGER_ARCHIVE_DIR: archiveDir,
      DCLEDGER_FETCH_RETRIES: '0',
      DCLEDGER_FETCH_INTERVAL_MS: '0',
      DCLEDGER_OGE_MAX_DOCUMENT_MB: String(limitMb),
      DCLEDGER_PDF_WORKER_MEMORY_MB: String(readerMemoryMb),
    });
    return ingestSources(store.db, config, {
      sources: ['oge'],
      baseUrl: url,
      since: '2016-01-01',
      clock: () => FIXTURE_NOW,
    });
  }

  const filing = (docId: string) =>
    store.db
      .selectFrom('filings')
      .select(['id', 'parse_status', 'parse_reason', 'trade_count'])
      .where('source', '=', 'oge')
      .where('source_doc_id', '=', docId)
      .executeTakeFirst();

  // Each run starts its own PDF reader process, as `dcledger ingest` does: slow on a busy machine.
  it('fails only a document over the size limit, reads the next ones, and rereads it under a larger limit', {
    timeout: 240_000,
  }, async () => {
    await open({
      '0-endless.pdf': endlessPdf,
      [BEDFORD]: pdfOf(real(BEDFORD)),
      [WRIGHT]: pdfOf(real(WRIGHT)),
    });
    const first = (await run(2)).sources[0];
    expect(first).toMatchObject({
      status: 'completed',
      error: null,
      documents: { stored: 3, failed: 0, remaining: 0, refused: 1 },
      statuses: { failed: 1, parsed: 2 },
    });
    expect(await filing('0-endless.pdf')).toMatchObject({ parse_status: 'failed', trade_count: 0 });
    expect((await filing('0-endless.pdf'))?.parse_reason).toMatch(
      /^refused: the document is larger than the 2 MB limit of oge documents \(DCLEDGER_OGE_MAX_DOCUMENT_MB\)/,
    );
    expect(await filing(BEDFORD)).toMatchObject({ parse_status: 'parsed' });
    expect((await filing(WRIGHT))?.trade_count).toBeGreaterThan(0);

    // The next run is not stuck behind it: nothing is fetched again under the same limit.
    const fetches = site.fetched.length;
    const second = (await run(2)).sources[0];
    expect(second).toMatchObject({ status: 'completed', documents: { stored: 0, refused: 0 } });
    expect(site.fetched.length).toBe(fetches);

    // A larger limit reads it again (this one is refused again: it never ends).
    const third = (await run(3)).sources[0];
    expect(third).toMatchObject({ status: 'completed', documents: { stored: 1, refused: 1 } });
    expect(site.fetched.slice(fetches)).toEqual(['0-endless.pdf']);
    expect((await filing('0-endless.pdf'))?.parse_reason).toContain('the 3 MB limit');
  });

  it('fails only a document that kills the PDF reader, with the reason, and reads the next ones', {
    timeout: 240_000,
  }, async () => {
    await open({ '0-bomb.pdf': pdfOf(textBombPdf(16)), [BEDFORD]: pdfOf(real(BEDFORD)) }, 160);
    const report = (await run(25)).sources[0];
    expect(report).toMatchObject({
      status: 'completed',
      error: null,
      documents: { stored: 2, failed: 0, remaining: 0 },
      statuses: { failed: 1, parsed: 1 },
    });
    const bomb = await filing('0-bomb.pdf');
    expect(bomb?.parse_status).toBe('failed');
    expect(bomb?.parse_reason).toBe(
      'the PDF reader failed: the PDF reader ran out of memory on this document (limit 160 MB)',
    );
    expect((await filing(BEDFORD))?.trade_count).toBeGreaterThan(0);
  });

  it('stores a byte-identical document under a second name once, keeping both names', {
    timeout: 240_000,
  }, async () => {
    const bytes = real(BEDFORD);
    await open({ [BEDFORD]: pdfOf(bytes), 'copy-of-bedford.pdf': pdfOf(bytes) });
    const report = (await run(25)).sources[0];
    expect(report).toMatchObject({
      status: 'completed',
      newFilings: 1,
      documents: { stored: 1, duplicates: [{ docId: 'copy-of-bedford.pdf', sameAs: BEDFORD }] },
    });
    const db = store.db;
    const filings = await db.selectFrom('filings').select(['id', 'source_doc_id']).execute();
    expect(filings.map((row) => row.source_doc_id)).toEqual([BEDFORD]);
    const regn = await db.selectFrom('trades').select('id').where('ticker', '=', 'REGN').execute();
    expect(regn).toHaveLength(1);
    // Both names are kept, with the one hash, and both lead to the one filing.
    const names = await db.selectFrom('document_names').select(['name', 'sha256']).orderBy('name').execute();
    expect(names.map((row) => row.name)).toEqual([BEDFORD, 'copy-of-bedford.pdf']);
    expect(new Set(names.map((row) => row.sha256)).size).toBe(1);
    const documents = await db
      .selectFrom('ingest_documents')
      .select(['source_doc_id', 'filing_id', 'status'])
      .orderBy('source_doc_id')
      .execute();
    expect(documents).toEqual([
      { source_doc_id: BEDFORD, filing_id: filings[0]?.id, status: 'stored' },
      { source_doc_id: 'copy-of-bedford.pdf', filing_id: filings[0]?.id, status: 'stored' },
    ]);
    // One announcement and one trade.created per trade, not two.
    const events = await db.selectFrom('events').select(['type', 'subject_key']).execute();
    expect(events.filter((event) => event.type === 'disclosure.detected')).toHaveLength(1);
    const tradeCount = (await db.selectFrom('trades').select('id').execute()).length;
    expect(events.filter((event) => event.type === 'trade.created')).toHaveLength(tradeCount);

    // The same bytes under a third name in a later run: recognised as well.
    site.documents.set('later-copy.pdf', pdfOf(bytes));
    const later = (await run(25)).sources[0];
    expect(later?.documents.duplicates).toEqual([{ docId: 'later-copy.pdf', sameAs: BEDFORD }]);
    expect(await db.selectFrom('trades').select('id').where('ticker', '=', 'REGN').execute()).toHaveLength(1);
    expect((await db.selectFrom('filings').select('id').execute()).length).toBe(1);
  });
});
