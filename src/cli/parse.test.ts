import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { readTruth } from '../../bench/accuracy/scanned-truth.js';
import { importCompanies } from '../market/import-companies.js';
import { openMigratedStore } from '../storage/open.js';
import { runCli } from '../test-support/cli.js';
import { insertTestMember } from '../test-support/constructed-rows.js';
import { congressPath } from '../test-support/documents.js';
import { OGE_278T_SCAN_FILE, OGE_278T_SCAN_TRUTH } from '../test-support/oge-278t-scan-truth.js';

const dataDir = inject('dataDir');

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

async function parse(...args: string[]): Promise<Outcome> {
  const { code, out, err } = await runCli('parse', ...args);
  return { stdout: out, stderr: err, exitCode: code };
}

/** A directory of the running test's own, removed when the test ends. */
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function scratchFile(name: string, content: string): string {
  const path = join(scratchDir('dcledger-parse-'), name);
  writeFileSync(path, content);
  return path;
}

describe.skipIf(!dataDir)('dcledger parse (real documents)', () => {
  const house = (...parts: string[]) => congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', ...parts);

  it('prints the trades of a House PTR with the filing context', async () => {
    const result = await parse(house('efiled-2025', '20026590.pdf'));
    expect(result.exitCode).toBe(0);
    const trades = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(trades).toHaveLength(9);
    expect(trades[0]).toMatchObject({
      source: 'house_clerk',
      chamber: 'House',
      politician_name: 'Nancy Pelosi',
      state: 'CA',
      district: '11',
      filing_id: '20026590',
      ticker: 'GOOGL',
      trade_type: 'Buy',
      owner: 'Spouse',
      option_type: 'Call',
      strike_price: 150,
      option_expiry: '2026-01-16',
      filing_status: 'New',
      transaction_date: '2025-01-14',
      disclosure_date: '2025-01-17',
      days_to_disclose: 3,
    });
  });

  it('with --no-ocr, says a scanned PTR needs OCR instead of printing []', async () => {
    const result = await parse(house('scanned-2025', '8220796.pdf'), '--no-ocr');
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toMatch(/^dcledger: 8220796\.pdf: needs OCR: scanned PDF without a text layer/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints every row a handwritten scan holds, flagged, those with a field no trade can hold too', {
    timeout: 600_000,
  }, async () => {
    const result = await parse(house('scanned-2025', '8220845.pdf'), '--no-database');
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    // Our transcription: two rows, APPLE INC COMMON STOCK bought 04/03/25 (D) and sold 04/07/25 (C).
    expect(rows.map((row) => [row.row, row.trade_type, row.amount_range])).toEqual([
      [1, 'Buy', '$100,001 - $250,000'],
      [2, 'Sell', '$50,001 - $100,000'],
    ]);
    for (const row of rows) {
      // The scan's file name is the Clerk's document id (a scan prints no "Filing ID #").
      expect(row).toMatchObject({ filing_id: '8220845', parse_method: 'ocr', needs_review: true });
      const confidence = row.confidence as Record<string, number>;
      // A date the engine could not read is null and said to be unsure, never made up.
      if (row.transaction_date === null) expect(confidence.transaction_date).toBe(0);
      else expect(confidence.transaction_date).toBeLessThan(0.85);
      expect((row.review_reasons as string[]).some((reason) => reason.startsWith('transaction_date'))).toBe(
        true,
      );
      expect(typeof (row.ocr_text as Record<string, string>).transaction_date).toBe('string');
    }
    const summary = await parse(house('scanned-2025', '8220845.pdf'), '--no-database', '--summary');
    expect(JSON.parse(summary.stdout)).toMatchObject({ rows: 2, trades: 0, rejected: 2, needs_review: 2 });
  });

  // 8220834 read without a database (the names test below compares against it).
  let withoutNames: Outcome | undefined;

  it('reads a scanned PTR by OCR: rows with parse_method, per-field confidence and needs_review', {
    timeout: 600_000,
  }, async () => {
    const result = await parse(house('scanned-2025', '8220834.pdf'), '--no-database');
    withoutNames = result;
    expect(result.exitCode).toBe(0);
    const trades = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    const visa = trades.find((trade) => trade.row === 31);
    expect(visa).toMatchObject({
      source: 'house_clerk',
      parse_method: 'ocr',
      needs_review: false,
      owner: 'Spouse',
      asset_description: 'VISA INC',
      trade_type: 'Sell',
      transaction_date: '2025-03-12',
      notification_date: '2025-04-05',
      amount_range: '$1,001 - $15,000',
    });
    const confidence = visa?.confidence as Record<string, number>;
    expect(Object.keys(confidence).sort()).toEqual(
      [
        'amount_range',
        'asset_description',
        'notification_date',
        'owner',
        'ticker',
        'trade_type',
        'transaction_date',
      ].sort(),
    );
    for (const value of Object.values(confidence)) expect(value).toBeGreaterThanOrEqual(0.8);
    // A row the engine could not read cleanly is printed flagged, never as certain.
    const flagged = trades.filter((trade) => trade.needs_review === true);
    expect(flagged.length).toBeGreaterThan(0);
    for (const trade of flagged) {
      expect(Math.min(...Object.values(trade.confidence as Record<string, number>))).toBeLessThan(0.85);
    }
    // Rows that cannot become trades (no type or bracket marked) are printed flagged, with what
    // the engine read and why they wait, not dropped.
    const required = ['trade_type', 'amount_range', 'transaction_date', 'asset_description'];
    const unfinished = trades.filter((trade) => required.some((field) => trade[field] === null));
    expect(unfinished.length).toBeGreaterThan(0);
    for (const row of unfinished) {
      expect(row).toMatchObject({ parse_method: 'ocr', needs_review: true });
      expect((row.review_reasons as string[]).length).toBeGreaterThan(0);
      expect(row.ocr_text).toEqual(
        expect.objectContaining({ asset: expect.any(String), types: expect.any(String) }),
      );
      // A field that could not be read is null and said to be unsure, never made up.
      const confidence = row.confidence as Record<string, number>;
      for (const field of required) if (row[field] === null) expect(confidence[field], field).toBe(0);
    }
    expect(result.stderr).not.toMatch(/not read/);

    const summary = await parse(house('scanned-2025', '8220834.pdf'), '--summary', '--no-database');
    expect(summary.exitCode).toBe(0);
    const details = (JSON.parse(summary.stdout) as { details: Array<Record<string, unknown>> }).details;
    expect(details).toEqual([
      expect.objectContaining({
        method: 'ocr',
        status: 'needs_review',
        rows: trades.length,
        trades: trades.length - unfinished.length,
        needs_review: flagged.length,
      }),
    ]);
  });

  it("checks a scan's asset names against the configured database's companies when there is one", {
    timeout: 600_000,
  }, async () => {
    const scan = house('scanned-2025', '8220834.pdf');
    const dir = scratchDir('dcledger-parse-db-');
    const file = join(dir, 'companies.db');
    const store = await openMigratedStore({ kind: 'sqlite', file });
    try {
      await importCompanies(store.db, join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'));
    } finally {
      await store.close();
    }
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('DCLEDGER_DB', file);
    try {
      const checked = await parse(scan);
      const unchecked = withoutNames ?? (await parse(scan, '--no-database'));
      expect([checked.exitCode, unchecked.exitCode]).toEqual([0, 0]);

      type Row = { needs_review: boolean; asset_description: string; row: number };
      const served = (outcome: Outcome) =>
        (JSON.parse(outcome.stdout) as Row[]).filter((trade) => !trade.needs_review);
      // The issuers' names confirm names the English words alone leave in doubt...
      expect(served(checked).length).toBeGreaterThan(served(unchecked).length + 20);
      // ...and every name served unflagged is one the filer wrote (our transcription of the scan).
      const truth = readTruth().find((document) => document.file === '8220834.pdf');
      const written = new Set(truth?.rows.map((row) => row.asset.toUpperCase()));
      expect(written.size).toBeGreaterThan(40);
      for (const trade of served(checked))
        expect(written, `row ${trade.row}`).toContain(trade.asset_description.toUpperCase());
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('takes who filed a scan, when and for which seat from the filing the database lists under its file name', {
    timeout: 600_000,
  }, async () => {
    const scan = house('scanned-2025', '8220747.pdf');
    const file = join(scratchDir('dcledger-parse-listed-'), 'listed.db');
    const store = await openMigratedStore({ kind: 'sqlite', file });
    const at = new Date('2025-02-07T00:00:00Z');
    try {
      await importCompanies(store.db, join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'));
      const member = await insertTestMember(
        store.db,
        { slug: 'gus-bilirakis', name: 'Gus Bilirakis', chamber: 'House', state: 'FL', district: '12' },
        at,
      );
      // The Clerk's index as ingest lists it before the document is fetched.
      await store.db
        .insertInto('filings')
        .values({
          source: 'house_clerk',
          source_doc_id: '8220747',
          kind: 'PTR',
          politician_id: member,
          filer_name: 'Hon. Gus M. Bilirakis',
          filed_date: '2025-02-06',
          url: null,
          is_paper: 1,
          raw_sha256: null,
          parse_status: 'pending',
          parse_reason: null,
          trade_count: 0,
          amends_filing_id: null,
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        })
        .execute();
    } finally {
      await store.close();
    }
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('DCLEDGER_DB', file);
    try {
      const listed = await parse(scan);
      expect(listed.exitCode).toBe(0);
      const [row] = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
      expect(row).toMatchObject({
        filing_id: '8220747',
        filer_name: 'Hon. Gus M. Bilirakis',
        politician_name: 'Gus Bilirakis',
        state: 'FL',
        district: '12',
        filed_date: '2025-02-06',
        disclosure_date: '2025-02-06',
        transaction_date: '2025-01-27',
        days_to_disclose: 10,
        needs_review: false,
      });

      // The date is used as ingest uses the index's: a transaction after the filing is doubtful.
      const early = await openMigratedStore({ kind: 'sqlite', file });
      try {
        await early.db.updateTable('filings').set({ filed_date: '2025-01-20' }).execute();
      } finally {
        await early.close();
      }
      const [doubted] = JSON.parse((await parse(scan)).stdout) as Array<Record<string, unknown>>;
      expect(doubted).toMatchObject({
        transaction_date: '2025-01-27',
        filed_date: '2025-01-20',
        needs_review: true,
      });
      expect(doubted?.review_reasons).toEqual(
        expect.arrayContaining([expect.stringMatching(/^transaction_date/)]),
      );

      // A file not named as the Clerk serves it finds no listing.
      const renamed = join(scratchDir('dcledger-parse-renamed-'), 'bilirakis.pdf');
      writeFileSync(renamed, readFileSync(scan));
      const [unlisted] = JSON.parse((await parse(renamed)).stdout) as Array<Record<string, unknown>>;
      expect(unlisted).toMatchObject({ filing_id: null, politician_name: null, filed_date: null });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('reads a scan without a database that does not exist (creating none), holds no companies or cannot be read (saying so)', {
    timeout: 600_000,
  }, async () => {
    const scan = house('scanned-2025', '8220747.pdf');
    const notSqlite = scratchFile('companies.db', 'not a database');
    const missing = join(scratchDir('dcledger-parse-db-'), 'none.db');
    vi.stubEnv('DATABASE_URL', '');
    try {
      vi.stubEnv('DCLEDGER_DB', missing);
      const noFile = await parse(scan);
      expect(noFile.exitCode).toBe(0);
      expect(noFile.stderr).toMatch(
        /^dcledger: no database at .*none\.db, so asset names are checked against English and security words only .*--companies <path>/m,
      );
      expect(existsSync(missing)).toBe(false);
      const asked = await parse(scan, '--no-database');
      expect(asked.stdout).toBe(noFile.stdout);
      expect(asked.stderr).not.toMatch(/asset names|no companies/);

      const empty = join(dirname(missing), 'empty.db');
      await (await openMigratedStore({ kind: 'sqlite', file: empty })).close();
      vi.stubEnv('DCLEDGER_DB', empty);
      const noCompanies = await parse(scan);
      expect(noCompanies.stdout).toBe(noFile.stdout);
      expect(noCompanies.stderr).toMatch(
        /^dcledger: .*empty\.db holds no companies, so asset names are checked/m,
      );

      // The issuers of a company file confirm the name the English words leave in doubt.
      const companies = join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json');
      const listed = await parse(scan, '--companies', companies);
      expect(listed.stderr).not.toMatch(/asset names|no companies/);
      type Row = { needs_review: boolean; asset_description: string; ticker: string };
      const [unnamed] = JSON.parse(noFile.stdout) as Row[];
      const [named] = JSON.parse(listed.stdout) as Row[];
      expect(unnamed?.needs_review).toBe(true);
      expect(named).toMatchObject({
        needs_review: false,
        asset_description: 'GE Vernova LLC',
        ticker: 'GEV',
      });
      const wrongPath = await parse(scan, '--companies', join(dirname(missing), 'no-such-dir'));
      expect(wrongPath.exitCode).toBe(1);
      expect(wrongPath.stderr).toMatch(/^dcledger: --companies: no such file or directory: .*no-such-dir\n$/);

      vi.stubEnv('DCLEDGER_DB', notSqlite);
      const unreadable = await parse(scan);
      expect(unreadable.exitCode).toBe(0);
      expect(unreadable.stdout).toBe(noFile.stdout);
      expect(unreadable.stderr).toMatch(
        /^dcledger: asset names not checked against .*companies\.db \(.+\); use --no-database to read without it$/m,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('reads a scanned OGE 278-T by OCR as an OGE report, its rows flagged where unsure', {
    timeout: 600_000,
  }, async () => {
    const file = congressPath(dataDir ?? '', 'raw-oge', 'open-cabinet-278t', 'pdfs', OGE_278T_SCAN_FILE);
    const summary = await parse(file, '--summary');
    expect(summary.exitCode).toBe(0);
    const result = JSON.parse(summary.stdout) as { kind: string; details: Array<Record<string, unknown>> };
    expect(result.kind).toBe('oge_pdf');
    const [detail] = result.details;
    expect(detail).toMatchObject({ kind: 'oge_278t_pdf', method: 'ocr', status: 'needs_review' });
    // The filer and the date OGE received it, read from the scan's pages.
    expect(detail).toMatchObject({ filer: 'Donald J Trump', filed_date: '2025-11-17' });
    expect(detail?.filer_read).toContain(
      `the filer's name read from the scan: page 1 reads "Trump, Donald J", page 2 reads "Donald J Trump", alike`,
    );
    // Every one of the form's 32 rows is a trade or a rejected row, none lost.
    expect(Number(detail?.trades) + Number(detail?.rejected)).toBe(OGE_278T_SCAN_TRUTH.length);
    expect(Number(detail?.needs_review)).toBeGreaterThan(0);
  });

  it('says an S3 error body saved as .pdf is not a PDF', async () => {
    const result = await parse(house('error-bodies', '20018355.pdf.s3-access-denied.xml'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('not a PDF');
    expect(result.stderr).toContain('AccessDenied');
  });

  it('prints every page of a concatenated Senate file, each trade with its own filer and dates', async () => {
    const file = congressPath(dataDir ?? '', 'raw-senate', 'efd-ptr-html', 'efd_ptr_pages_2021_sample.html');
    const result = await parse(file);
    expect(result.exitCode).toBe(0);
    const trades = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(trades).toHaveLength(1230);
    expect(new Set(trades.map((trade) => trade.politician_name)).size).toBeGreaterThan(20);
    expect(trades.find((trade) => trade.politician_name === 'Cynthia M Lummis')).toMatchObject({
      chamber: 'Senate',
      ticker: 'BTC',
      filed_date: '2021-10-07',
      disclosure_date: '2021-10-07',
    });
    const summary = await parse(file, '--summary');
    expect(JSON.parse(summary.stdout)).toMatchObject({ documents: 123, parsed: 123, trades: 1230 });
  });

  it('prints OGE trades with the agency and uses the file name as the filing id', async () => {
    const file = congressPath(
      dataDir ?? '',
      'raw-oge',
      'open-cabinet-278t',
      'pdfs',
      'Kristi-Noem-07.23.2025-278T.pdf',
    );
    const result = await parse(file, '--source', 'oge');
    expect(JSON.parse(result.stdout)).toEqual([
      expect.objectContaining({
        chamber: 'Executive',
        politician_name: 'Kristi Noem',
        agency: 'Department of Homeland Security',
        filing_id: 'Kristi-Noem-07.23.2025-278T.pdf',
        asset_description: 'Granite Falls Energy LLC',
      }),
    ]);
  });

  it('refuses a source that does not match the document', async () => {
    const result = await parse(house('efiled-2025', '20026590.pdf'), '--source', 'senate');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('expected an eFD page');
  });
});

describe('dcledger parse (usage and unknown input)', () => {
  it('exits 2 on a usage error', async () => {
    expect((await parse('x.pdf', '--source', 'nasdaq')).exitCode).toBe(2);
    expect((await parse()).exitCode).toBe(2);
  });

  it('exits 1 with one line for a missing or unrecognized file', async () => {
    const missing = await parse('/nonexistent/dir/file.pdf');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/^dcledger: cannot read \/nonexistent\/dir\/file\.pdf/);
    const text = await parse(scratchFile('notes.txt', 'just some notes\n'));
    expect(text.exitCode).toBe(1);
    expect(text.stderr).toContain('unrecognized document');
  });
});

describe('dcledger parse (documents over the size limit)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /** A constructed "PDF": the header, then zeros up to `megabytes` (a sparse file: no disk used). */
  function hugePdf(megabytes: number): string {
    const path = scratchFile('huge.pdf', '%PDF-1.4\n');
    truncateSync(path, megabytes * 1024 * 1024);
    return path;
  }

  it('refuses a 60 MB file in one line without reading it (default limit 50 MB)', async () => {
    vi.stubEnv('DCLEDGER_MAX_DOCUMENT_MB', '');
    const result = await parse(hugePdf(60));
    expect(result).toMatchObject({ exitCode: 1, stdout: '' });
    expect(result.stderr).toBe(
      'dcledger: huge.pdf: 60 MB is over the 50 MB document limit (DCLEDGER_MAX_DOCUMENT_MB); not read\n',
    );
  });

  it("reads the limit from DCLEDGER_MAX_DOCUMENT_MB, or the source's own with --source", async () => {
    vi.stubEnv('DCLEDGER_MAX_DOCUMENT_MB', '1');
    const file = hugePdf(2);
    expect((await parse(file)).stderr).toContain('2 MB is over the 1 MB document limit');
    vi.stubEnv('DCLEDGER_HOUSE_MAX_DOCUMENT_MB', '3');
    // Within the House limit: read, and found not to be a readable PDF.
    const house = await parse(file, '--source', 'house');
    expect(house.exitCode).toBe(1);
    expect(house.stderr).not.toContain('document limit');
  });
});

describe.skipIf(!dataDir)('dcledger parse (SEC documents)', () => {
  const related = (...parts: string[]) => join(dataDir ?? '', 'related', ...parts);

  it('prints a Form 4 in the interface shape (issuer, owners, transactions with footnote texts)', async () => {
    const result = await parse(related('form4', 'go-edgar', 'arrowhead_footnotes.input.xml'));
    expect(result.exitCode).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.issuer).toEqual({
      cik: '0000879407',
      name: 'ARROWHEAD PHARMACEUTICALS, INC.',
      ticker: 'ARWR',
    });
    expect(output.owners[0]).toMatchObject({
      cik: '0001242615',
      name: 'OLUKOTUN ADEOYE Y',
      is_director: true,
    });
    expect(output.transactions[0]).toMatchObject({
      table: 'non_derivative',
      security: 'Common Stock',
      date: '2025-12-19',
      code: 'S',
      shares: 3090,
      price: 66.7,
      acquired_disposed: 'D',
      shares_after: 40510,
      direct_indirect: 'D',
    });
    expect(output.transactions[0].footnotes[0]).toMatch(
      /^Shares were sold pursuant to a 10b5-1 trading plan/,
    );
  });

  it('prints a 13G (blank line before <?xml) in the interface shape, with --source sec', async () => {
    const result = await parse(related('sc13', 'edgartools', 'schedule13g.xml'), '--source', 'sec');
    expect(result.exitCode).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output).toMatchObject({ form: 'SC 13G', event_date: '2025-11-19' });
    expect(output.issuer).toEqual({
      cik: '0001909747',
      cusip: '48213Y107',
      name: 'Jushi Holdings Inc.',
      ticker: null,
    });
    expect(output.persons[0]).toEqual({
      name: 'Marex Securities Products Inc.',
      cik: null,
      type: 'CO',
      sole_voting: 10000000,
      shared_voting: 0,
      sole_dispositive: 10000000,
      shared_dispositive: 0,
      aggregate_amount: 10000000,
      percent_of_class: 5.1,
    });
  });

  it('exits 1 with the reason for a pre-XML text Form 4', async () => {
    const result = await parse(related('form4', 'edgartools', 'sgml__0001094891-00-000193.txt'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('unsupported: Form 4 without an ownershipDocument XML');
    const notSec = await parse(scratchFile('notes.xml', '<notes>hi</notes>'), '--source', 'sec');
    expect(notSec.exitCode).toBe(1);
    expect(notSec.stderr).toContain('not a Form 3/4/5 ownership document');
  });
});
