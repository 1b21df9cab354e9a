// Who a filing's person is, on real records: Robert F. Kennedy Jr.'s 278-T (the roster's John F.
// Kennedy held office until 1963, so he cannot be its filer) and the dates that filing states;
// executive filers' dates of service from their 278e termination reports.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { qualityFlagsOf } from '../domain/quality.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { congressPath, loadPdf } from '../test-support/documents.js';
import { FilerResolver, storedDocumentFiler } from './filers.js';
import { importLegislators } from './legislators/import.js';
import type { ParsedDocument } from './sources/document.js';
import { parseOge278Pdf } from './sources/oge/t278-pdf.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('identity resolution on real filings', () => {
  let store: TestStore;
  let resolver: FilerResolver;
  beforeAll(async () => {
    store = await openTestStore();
    await importLegislators(
      store.db,
      join(dataDir ?? '', 'congress/legislators'),
      new Date('2026-06-01T12:00:00Z'),
    );
    resolver = await FilerResolver.load(store.db);
  });
  afterAll(async () => store?.dispose());

  it("does not put Robert F. Kennedy Jr.'s 278-T on President John F. Kennedy", async () => {
    const parsed = parseOge278Pdf(
      await loadPdf(
        congressPath(
          dataDir ?? '',
          'raw-oge',
          'open-cabinet-278t',
          'pdfs',
          'Robert-F-Kennedy-Jr-05.09.2025-278T.pdf',
        ),
      ),
    );
    const name = parsed.filing.filer_display_name ?? parsed.filing.filer_name ?? '';
    expect(name).toMatch(/Kennedy/);
    expect(resolver.find({ name, chamber: 'Executive', date: parsed.filing.filed_date })).toBeNull();
    // The same name in 1962 would be the president's (a term covers it): the term decides.
    const jfk = resolver.find({ name: 'John F. Kennedy', chamber: 'Executive', date: '1962-05-01' });
    expect(jfk?.by).toBe('name');
    // The 2225 row is stored flagged, out of statistics.
    const typo = parsed.trades.find((trade) => trade.transaction_date === '2225-04-04');
    expect(typo).toBeDefined();
    const flags = qualityFlagsOf(
      {
        source: 'oge',
        ticker: typo?.ticker ?? 'N/A',
        transaction_date: typo?.transaction_date ?? '',
        disclosure_date: typo?.disclosure_date ?? null,
        amount_range: typo?.amount_range ?? null,
        amount_low: typo?.amount_low ?? null,
        amount_high: typo?.amount_high ?? null,
        asset_type: typo?.asset_type ?? null,
        asset_description: typo?.asset_description ?? null,
        option_type: null,
        strike_price: null,
        option_expiry: null,
        identity_match: 'filer',
        politician_origin: 'connector:oge',
        politician_birthday: null,
      },
      '2026-06-01',
    );
    expect(flags).toEqual(['date_out_of_range', 'transaction_after_disclosure']);
  });

  const ogeDocument = async (file: string): Promise<ParsedDocument> =>
    parseOge278Pdf(await loadPdf(congressPath(dataDir ?? '', 'raw-oge', 'open-cabinet-278t', 'pdfs', file)));

  const storeFilerOf = async (file: string, parsed: ParsedDocument) =>
    storedDocumentFiler(store.db, resolver, {
      source: 'oge',
      // No filing on record: the filer is the one the document names.
      filingId: -1,
      listed: {
        source: 'oge',
        docId: file,
        url: null,
        kind: 'PTR',
        title: file,
        filedDate: parsed.filing.filed_date,
        filer: null,
        filerName: null,
        isPaper: false,
        isAmendment: false,
        known: null,
      },
      parsed,
      clock: () => new Date('2026-06-01T12:00:00Z'),
    });

  it("dates an executive filer's service from the 278e termination report and checks filings against it", async () => {
    const file = 'Marcus-Molinaro-2026-278TERM.pdf';
    const parsed = await ogeDocument(file);
    const outcome = await storeFilerOf(file, parsed);
    expect(outcome.created).toBe(
      'Marcus Molinaro (FTA Administrator, Department of Transportation), oge:Marcus-Molinaro-2026-278TERM.pdf',
    );
    const record = await store.db
      .selectFrom('politicians')
      .select(['chamber', 'title', 'agency', 'service_start', 'service_end'])
      .where('id', '=', outcome.id ?? -1)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({
      chamber: 'Executive',
      title: 'FTA Administrator',
      agency: 'Department of Transportation',
      service_start: '2025-08',
      service_end: '2026-02-20',
    });
    // A filing within the service (with a year's grace before appointment, two after
    // termination) is his; one from before 2024-08 or after 2028-02-20 is not.
    const on = (date: string) => resolver.find({ name: 'Marcus Molinaro', chamber: 'Executive', date })?.id;
    expect(on('2025-11-10')).toBe(outcome.id);
    expect(on('2024-08-01')).toBe(outcome.id);
    expect(on('2028-02-20')).toBe(outcome.id);
    expect(on('2024-07-31')).toBeUndefined();
    expect(on('2028-02-21')).toBeUndefined();
    // The roster's Marcus Molinaro (House, 2023-2025) is another record: he never held an executive term.
    const representative = resolver.find({ name: 'Marcus Molinaro', chamber: 'House', date: '2024-01-10' });
    expect(representative?.id).toBeDefined();
    expect(representative?.id).not.toBe(outcome.id);
  });

  it('keeps the record of a filer whose reports state no dates of service unchecked', async () => {
    const file = 'Deanne-Criswell-08.10.2022-278T.pdf';
    const parsed = await ogeDocument(file);
    expect([parsed.filing.service_start, parsed.filing.service_end]).toEqual([null, null]);
    const outcome = await storeFilerOf(file, parsed);
    const record = await store.db
      .selectFrom('politicians')
      .select(['service_start', 'service_end'])
      .where('id', '=', outcome.id ?? -1)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ service_start: null, service_end: null });
    expect(resolver.find({ name: 'Deanne Criswell', chamber: 'Executive', date: '2035-01-01' })?.id).toBe(
      outcome.id,
    );
  });

  it("ignores a bioguide hint that names someone else: McConnell's eFD rows carry M000357", () => {
    const found = resolver.find({
      name: 'A. Mitchell McConnell, Jr.',
      chamber: 'Senate',
      bioguideId: 'M000357',
      date: '2020-12-17',
    });
    expect(found?.by).toBe('name');
    expect(found?.hintRejected).toMatch(/M000357 \(William McConnell\)/);
    const mitch = resolver.find({
      name: 'Mitch McConnell',
      chamber: 'Senate',
      bioguideId: 'M000355',
      date: '2020-12-17',
    });
    expect(mitch?.by).toBe('bioguide');
    expect(found?.id).toBe(mitch?.id);
  });
});
