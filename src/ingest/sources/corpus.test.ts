// Every raw document in the shared data goes through the same entry point the `parse` command
// uses. An electronic filing may never come back as "parsed, zero trades" unless it says the
// report lists none: a parse failure must be visible as a status, not as an empty filing.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes } from '../../test-support/documents.js';
import type { ParsedDocument } from './document.js';
import { type DocumentParse, parseDocument } from './parse-document.js';

const dataDir = inject('dataDir');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.skipIf(!dataDir)('the raw-document corpus', () => {
  const results = new Map<string, DocumentParse>();
  beforeAll(async () => {
    const root = congressPath(dataDir ?? '');
    const files = ['raw-house', 'raw-senate', 'raw-oge'].flatMap((folder) => filesUnder(join(root, folder)));
    for (const file of files) results.set(relative(root, file), await parseDocument(readBytes(file)));
  }, 240_000);

  function reports(prefix: string): Array<[string, ParsedDocument]> {
    return [...results]
      .filter(([file]) => file.startsWith(prefix))
      .flatMap(([file, result]) =>
        result.kind === 'reports'
          ? result.documents.map((document): [string, ParsedDocument] => [file, document])
          : [],
      );
  }

  it('never reports a parsed filing without trades unless the filing says it has none', () => {
    const silent = [...results].flatMap(([file, result]) =>
      result.kind === 'reports'
        ? result.documents
            .filter((document) => document.status === 'parsed' && document.trades.length === 0)
            .filter((document) => !/lists no transactions/.test(document.reason ?? ''))
            .map(() => file)
        : [],
    );
    expect(silent).toEqual([]);
  });

  it('recognizes every file', () => {
    const kinds: Record<string, string> = {};
    for (const [file, result] of results)
      kinds[file] =
        result.kind === 'unreadable'
          ? result.status
          : result.kind === 'listing'
            ? result.format
            : result.kind;
    const unreadable = Object.entries(kinds).filter(([, kind]) => kind === 'failed' || kind === 'needs_ocr');
    expect(unreadable.sort()).toEqual(
      [
        ['raw-house/ptr-pdfs/error-bodies/20018355.pdf.s3-access-denied.xml', 'failed'],
        ...['8220747', '8220750', '8220796', '8220809', '8220828', '8220834', '8220845'].map((docId) => [
          `raw-house/ptr-pdfs/scanned-2025/${docId}.pdf`,
          'needs_ocr',
        ]),
      ].sort(),
    );
    expect(Object.values(kinds).filter((kind) => ['txt', 'xml', 'zip'].includes(kind))).toHaveLength(15);
    expect(Object.values(kinds).filter((kind) => kind === 'senate_search')).toHaveLength(1);
  });

  it('reads every e-filed House PTR and counts its trades', () => {
    const house = reports('raw-house/ptr-pdfs/');
    expect(house).toHaveLength(52);
    expect(house.every(([, document]) => document.status === 'parsed')).toBe(true);
    // 1,271 is also the number of "[XX]" asset codes in the PDFs' text: one per transaction.
    expect(house.reduce((sum, [, document]) => sum + document.trades.length, 0)).toBe(1271);
    expect(house.flatMap(([, document]) => document.rejected)).toEqual([]);
    // Each PDF states its own Filing ID, which is its file name.
    for (const [file, document] of house) expect(file).toContain(`${document.filing.source_doc_id}.pdf`);
  });

  it('reads every Senate page', () => {
    const senate = reports('raw-senate/');
    expect(senate).toHaveLength(269);
    expect(senate.every(([, document]) => document.status === 'parsed' && document.trades.length > 0)).toBe(
      true,
    );
    expect(senate.reduce((sum, [, document]) => sum + document.trades.length, 0)).toBe(2974);
  });

  it('reads the OGE reports and says why the others are not read', () => {
    const oge = reports('raw-oge/');
    expect(oge).toHaveLength(104);
    const byStatus: Record<string, number> = {};
    for (const [, document] of oge) byStatus[document.status] = (byStatus[document.status] ?? 0) + 1;
    expect(byStatus).toEqual({ parsed: 100, failed: 1, needs_ocr: 1, unsupported: 2 });
    expect(oge.reduce((sum, [, document]) => sum + document.trades.length, 0)).toBe(2062);
    for (const [, document] of oge) if (document.status !== 'parsed') expect(document.reason).toBeTruthy();
  });
});
