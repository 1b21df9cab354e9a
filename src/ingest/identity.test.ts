// Who a filing's person is, on real records: Robert F. Kennedy Jr.'s 278-T (the roster's John F.
// Kennedy held office until 1963, so he cannot be its filer) and the dates that filing states.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { qualityFlagsOf } from '../domain/quality.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { congressPath, loadPdf } from '../test-support/documents.js';
import { FilerResolver } from './filers.js';
import { importLegislators } from './legislators/import.js';
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
