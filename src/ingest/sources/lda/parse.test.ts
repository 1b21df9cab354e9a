// The LDA readers on the real recorded documents: one page of the LDA REST API (lda.gov, 2017 Q1)
// and the Senate's UTF-16 bulk XML files (three part files byte for byte, and a slice of 412
// filings of large-cap clients). Values asserted are the documents' own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireDataDir } from '../../../test-support/data-dir.js';
import { parseLdaFilingsPage } from './api.js';
import { bulkFilingType, parseLdaBulkXml } from './bulk-xml.js';
import { filingAmount, issueCodeOfName, LdaFormatError } from './filing.js';

const lda = join(requireDataDir(), 'related/lda');
const bulk = (name: string) => parseLdaBulkXml(readFileSync(join(lda, 'senate-bulk-xml', name)));

describe('LDA API filings page (real: lda.gov /api/v1/filings/ 2017 Q1, page_size 2)', () => {
  const page = parseLdaFilingsPage(readFileSync(join(lda, 'api-v1/filings_2017q1_page.json'), 'utf8'));

  it('reads the envelope', () => {
    expect(page.count).toBe(19546);
    expect(page.next).toBe(
      'https://lda.gov/api/v1/filings/?filing_period=first_quarter&filing_year=2017&page=2&page_size=2',
    );
    expect(page.previous).toBeNull();
    expect(page.filings).toHaveLength(2);
  });

  it('reads an LD-1 registration with lobbyists and their covered positions', () => {
    const filing = page.filings[0];
    expect(filing).toMatchObject({
      filingUuid: 'a7171be4-bd95-48ae-84f4-a8cb9b39c802',
      filingType: 'RR',
      filingTypeDisplay: 'Registration',
      filingYear: 2017,
      filingPeriod: 'first_quarter',
      registrantId: '76992',
      registrantName: 'CGCN GROUP, LLC',
      clientId: '1002995',
      clientName: 'AMERICAN INVESTMENT COUNCIL (FKA "PEGCC")',
      income: null,
      expenses: null,
      postedAt: '2017-01-01T16:07:51-05:00',
      documentUrl: 'https://lda.gov/filings/public/filing/a7171be4-bd95-48ae-84f4-a8cb9b39c802/print/',
      origin: 'lda_api',
    });
    expect(filing?.issues).toEqual([
      {
        code: 'TAX',
        name: 'Taxation/Internal Revenue Code',
        description: 'Tax issues affecting private equity and partnership, including tax reform.',
      },
    ]);
    expect(filing?.lobbyists).toHaveLength(10);
    expect(filing?.lobbyists[0]).toEqual({ name: 'STEVE CLARK', coveredPosition: null, isNew: true });
    expect(filing?.lobbyists.find((l) => l.name === 'DEBORAH PRYCE')?.coveredPosition).toBe(
      'Member of Congress (OH-15) 1993-2009',
    );
    expect(filing?.governmentEntities).toEqual([]);
    expect(filing && filingAmount(filing)).toBeNull();
  });

  it('reads a self-filer amendment with two activities, lobbyists listed once', () => {
    const filing = page.filings[1];
    expect(filing?.filingType).toBe('RA');
    expect(filing?.registrantName).toBe('NATIONAL PRECAST CONCRETE ASSOCIATION, INC.');
    expect(filing?.clientName).toBe('NATIONAL PRECAST CONCRETE ASSOCIATION, INC.');
    expect(filing?.issues.map((issue) => issue.code)).toEqual(['TRA', 'ROD']);
    expect(filing?.lobbyists.map((l) => l.name)).toEqual(['RICHARD KROLEWSKI', 'TY E GABLE']);
  });

  it('keeps income and expenses as the decimal strings the API gives', () => {
    const [first] = JSON.parse(readFileSync(join(lda, 'api-v1/filings_2017q1_page.json'), 'utf8')).results;
    const withMoney = { count: 1, next: null, previous: null, results: [{ ...first, income: '120000.00' }] };
    const [filing] = parseLdaFilingsPage(JSON.stringify(withMoney)).filings;
    expect(filing?.income).toBe('120000.00');
    expect(filing && filingAmount(filing)).toBe(120000);
  });

  it('refuses what is not a filings page, and amounts that are not decimals', () => {
    expect(() => parseLdaFilingsPage('{"detail":"Not found."}')).toThrow(LdaFormatError);
    expect(() => parseLdaFilingsPage('<html>')).toThrow(LdaFormatError);
    const [first] = JSON.parse(readFileSync(join(lda, 'api-v1/filings_2017q1_page.json'), 'utf8')).results;
    const bad = { count: 1, next: null, previous: null, results: [{ ...first, income: 'about 5k' }] };
    expect(() => parseLdaFilingsPage(JSON.stringify(bad))).toThrow(/income is not a decimal/);
  });
});

describe('Senate bulk XML (real, UTF-16LE with BOM and CRLF)', () => {
  it('reads 2017_1_3_2.xml: 39 filings, the first a Q1 self-filer report', () => {
    const filings = bulk('2017_1_3_2.xml');
    expect(filings).toHaveLength(39);
    expect(filings[0]).toMatchObject({
      filingUuid: 'bff3638c-5a1c-4cb8-8118-698d64fd187e',
      filingType: 'Q1',
      filingYear: 2017,
      filingPeriod: 'first_quarter',
      registrantId: '2013',
      registrantName: 'AMERICAN COMMITTEE FOR THE WEIZMANN INSTITUTE OF SCIENCE',
      clientId: '2013-12',
      income: null,
      expenses: null,
      postedAt: '2017-03-31T10:47:35.013',
    });
    expect(filings[0]?.issues).toEqual([
      {
        code: 'EDU',
        name: 'Education',
        description:
          'Foreign Operations Appropriations (American Schools & Hospitals Abroad Program) (no bill number)',
      },
    ]);
    expect(filings[0]?.governmentEntities).toEqual([
      'SENATE',
      'U.S. Agency for International Development (USAID)',
      'HOUSE OF REPRESENTATIVES',
    ]);
    const bramer = filings[1];
    expect(bramer?.registrantName).toBe('Bramer Group, LLC');
    expect(bramer?.clientName).toBe('MSI-Defense Systems US, Inc');
    expect(bramer?.income).toBe('22500');
    expect(bramer?.lobbyists).toEqual([
      { name: 'BRAMER, DONALD', coveredPosition: 'Chairman', isNew: null },
      { name: 'GONZALES, ROMAN III', coveredPosition: 'VP. National & Homeland Security', isNew: null },
    ]);
    expect(bramer?.governmentEntities).toContain('Navy, Dept of');
  });

  it('reads 2017_1_2_2.xml: 195 filings, a no-activity Q4 report first', () => {
    const filings = bulk('2017_1_2_2.xml');
    expect(filings).toHaveLength(195);
    expect(filings[0]).toMatchObject({
      filingUuid: '96f1e8a2-a4ad-47b2-af47-5e76a8710dae',
      filingType: 'Q4',
      filingTypeDisplay: 'FOURTH QUARTER (NO ACTIVITY)',
      filingYear: 2016,
      noActivity: true,
      registrantName: 'MAVEN, INC.',
      clientName: 'MAVEN INC',
    });
  });

  it('reads 2017_1_1_17.xml: 110 filings, income of a Q2 2016 report', () => {
    const filings = bulk('2017_1_1_17.xml');
    expect(filings).toHaveLength(110);
    expect(filings[0]).toMatchObject({
      filingUuid: 'd453b2d9-0617-4564-a6a6-351c49a0eafd',
      filingType: 'Q2',
      registrantName: 'CAPITOL HEALTH GROUP, LLC',
      clientName: 'Macular Degeneration Asssociation, Inc',
      income: '30000',
    });
    expect(filings[0]?.issues.map((issue) => issue.code)).toEqual(['HCR', 'MED']);
  });

  it('reads the large-cap slice: 412 filings, decoded character references, 1,990 lobbyist rows in all files', () => {
    const slice = bulk('largecap_clients_2016Q3-2017Q2.SLICED.xml');
    expect(slice).toHaveLength(412);
    expect(slice.filter((filing) => filing.income ?? filing.expenses).length).toBe(355);
    const oracle = slice[0];
    expect(oracle?.clientName).toBe('Oracle Corporation');
    expect(oracle?.registrantName).toBe('The Michael Lewan Company');
    expect(oracle?.income).toBe('60000');
    expect(oracle?.issues[0]?.description).toBe(
      'Legislation pertaining to tax and budget\nInternational tax policy',
    );
    const all = [
      '2017_1_1_17.xml',
      '2017_1_2_2.xml',
      '2017_1_3_2.xml',
      'largecap_clients_2016Q3-2017Q2.SLICED.xml',
    ];
    const lobbyistRows = all.flatMap(bulk).reduce((sum, filing) => sum + filing.lobbyists.length, 0);
    expect(lobbyistRows).toBe(1990);
    // Every issue name of the four files is in the LDA code list.
    expect(
      all
        .flatMap(bulk)
        .flatMap((f) => f.issues)
        .filter((issue) => issue.code === null),
    ).toEqual([]);
  });

  it('maps the bulk file type phrases to the API codes', () => {
    expect(bulkFilingType('REGISTRATION')).toEqual({ code: 'RR', period: null, noActivity: false });
    expect(bulkFilingType('REGISTRATION AMENDMENT').code).toBe('RA');
    expect(bulkFilingType('SECOND QUARTER AMENDMENT (NO ACTIVITY)')).toEqual({
      code: '2A',
      period: 'second_quarter',
      noActivity: true,
    });
    expect(bulkFilingType('FOURTH QUARTER TERMINATION').code).toBe('4T');
    expect(issueCodeOfName('TRADE (DOMESTIC/FOREIGN)')).toBe('TRD');
  });

  it('refuses a file that is not a bulk download', () => {
    expect(() => parseLdaBulkXml(Buffer.from('<Other/>'))).toThrow(LdaFormatError);
  });
});
