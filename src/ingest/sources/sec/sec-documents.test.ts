// Every real SEC document under ../shared/data/related (form4, sc13), with concrete values read off
// the documents themselves.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { compareWithGoEdgar } from '../../../../bench/accuracy/sec-go-edgar.js';
import type { OwnershipDocument } from './ownership.js';
import { parseSecDocument } from './parse-sec.js';
import type { ScheduleDocument } from './schedule13.js';

const dataDir = inject('dataDir');
const related = (...parts: string[]) => join(dataDir ?? '', 'related', ...parts);
const read = (...parts: string[]) => readFileSync(related(...parts), 'utf8');

function ownership(...parts: string[]): OwnershipDocument {
  const result = parseSecDocument(read(...parts));
  if (result.kind !== 'ownership') throw new Error(`${parts.join('/')}: ${result.kind}`);
  return result.document;
}

function schedule(...parts: string[]): ScheduleDocument {
  const result = parseSecDocument(read(...parts));
  if (result.kind !== 'schedule13') throw new Error(`${parts.join('/')}: ${result.kind}`);
  return result.document;
}

describe.skipIf(!dataDir)('Form 3/4/5 ownership documents (real)', () => {
  it('SNOW Form 4: CFO Scarpelli exercises 200,000 at $8.88 and sells in five lots', () => {
    const document = ownership('form4', 'edgartools', 'form4.snow.xml');
    expect(document.form).toBe('4');
    expect(document.issuer).toEqual({ cik: '0001640147', name: 'Snowflake Inc.', ticker: 'SNOW' });
    expect(document.owners[0]).toMatchObject({
      name: 'Scarpelli Michael',
      cik: '0001402349',
      is_officer: true,
      officer_title: 'Chief Financial Officer',
    });
    expect(document.transactions).toHaveLength(7);
    expect(document.transactions[0]).toMatchObject({
      table: 'non_derivative',
      code: 'M',
      shares: 200000,
      price: 8.88,
      acquired_disposed: 'A',
      shares_after: 301097,
      direct_indirect: 'D',
    });
    expect(document.transactions[1]).toMatchObject({
      code: 'S',
      shares: 73170,
      price: 150.841,
      shares_after: 227927,
    });
    expect(document.transactions[1]?.footnotes[0]).toBe(
      'The sales reported in this Form 4 were effected for financial and tax planning purposes.',
    );
    expect(document.transactions[1]?.footnote_refs).toEqual([
      { field: 'transactionCoding', id: 'F2' },
      { field: 'transactionPricePerShare', id: 'F3' },
    ]);
    expect(document.transactions[6]).toMatchObject({
      table: 'derivative',
      code: 'M',
      conversion_price: 8.88,
      expiration_date: '2029-08-26',
      underlying_shares: 200000,
    });
    expect(document.holdings).toHaveLength(8);
    expect(document.holdings[0]).toMatchObject({ shares_owned: 577218, direct_indirect: 'I' });
    expect(document.transactions.every((row) => !row.ten_b5_1)).toBe(true);
  });

  it('SCWO Form 4 (374Water): RSU grant 757,756 and option on 757,576 at $0.33', () => {
    const document = ownership('form4', 'edgartools', 'ownership__374WaterForm4.xml');
    expect(document.issuer.ticker).toBe('SCWO');
    expect(document.owners[0]?.officer_title).toBe('Chief Technology Officer');
    expect(document.transactions[0]).toMatchObject({
      code: 'A',
      shares: 757756,
      price: 0,
      shares_after: 757756,
    });
    expect(document.transactions[1]).toMatchObject({
      table: 'derivative',
      shares: 757576,
      conversion_price: 0.33,
      expiration_date: '2035-04-29',
    });
    expect(document.transactions[0]?.footnotes[0]).toMatch(/^Vesting commencement date is March 31, 2025/);
  });

  it('Form 3s: SNOW director Garrett, Berkshire/Buffett 10% holders, SPWR with no securities', () => {
    const garrett = ownership('form4', 'edgartools', 'ownership__form3.snow.xml');
    expect(garrett.form).toBe('3');
    expect(garrett.transactions).toEqual([]);
    expect(garrett.holdings[0]).toMatchObject({
      table: 'derivative',
      security: 'Series E Preferred Stock',
      underlying_security: 'Class B Common Stock',
      underlying_shares: 134018,
      direct_indirect: 'I',
      nature_of_ownership: 'Limited Partnership',
    });
    expect(garrett.holdings[1]).toMatchObject({ conversion_price: 3.74, underlying_shares: 383594 });

    const berkshire = ownership('form4', 'edgartools', 'form3.snow.nonderiv.xml');
    expect(berkshire.owners.map((owner) => [owner.name, owner.is_ten_percent_owner])).toEqual([
      ['BERKSHIRE HATHAWAY INC', true],
      ['BUFFETT WARREN E', true],
    ]);
    expect(berkshire.holdings[0]).toMatchObject({
      security: 'Class A Common Stock',
      shares_owned: 6125376,
      direct_indirect: 'I',
      nature_of_ownership: 'See footnote',
    });
    expect(berkshire.holdings[0]?.footnotes[0]).toMatch(
      /^The reported securities are owned directly by Columbia Insurance Company/,
    );

    const sunpower = ownership('form4', 'edgartools', 'form3.nosecurities.xml');
    expect(sunpower.issuer).toEqual({ cik: '0000867773', name: 'SUNPOWER CORP', ticker: 'SPWR' });
    expect(sunpower.owners[0]).toMatchObject({ name: 'Hegde Vinayak', is_director: true });
    expect([sunpower.transactions.length, sunpower.holdings.length]).toEqual([0, 0]);
    expect(sunpower.remarks).toBe('Exhibit 24.1 - Power of Attorney');
  });

  it('SNOW Form 5: McMahon gifts 61,386 shares (G) and two trust holdings', () => {
    const document = ownership('form4', 'edgartools', 'ownership__form5.snow.xml');
    expect(document.form).toBe('5');
    expect(document.transactions[0]).toMatchObject({
      date: '2021-12-23',
      code: 'G',
      shares: 61386,
      price: 0,
      acquired_disposed: 'D',
      shares_after: 54666,
    });
    expect(document.transactions[0]?.footnotes[0]).toBe(
      'Represents shares that the Reporting Person transferred for no consideration.',
    );
    expect(document.holdings.map((holding) => holding.shares_owned)).toEqual([151188, 125737]);
  });

  it('AAR (.txt submission): Garascia sells 1,500 at $66.903 with the accession from the header', () => {
    const result = parseSecDocument(read('form4', 'edgartools', 'sgml__0001127602-25-001055.txt'));
    expect(result.kind).toBe('ownership');
    if (result.kind !== 'ownership') return;
    expect(result.header).toMatchObject({
      accession_number: '0001127602-25-001055',
      form_type: '4',
      filed_date: '2025-01-10',
    });
    expect(result.document.issuer.ticker).toBe('AIR');
    expect(result.document.transactions[0]).toMatchObject({
      code: 'S',
      shares: 1500,
      price: 66.903,
      shares_after: 37565,
    });
  });

  it('ARW (.nc envelope): A 2,193 and F 1,009 at $106.82', () => {
    const result = parseSecDocument(read('form4', 'edgartools', 'sgml__0001127602-25-004598.nc.txt'));
    if (result.kind !== 'ownership') throw new Error(result.kind);
    expect(result.header).toMatchObject({
      accession_number: '0001127602-25-004598',
      filed_date: '2025-02-13',
    });
    expect(result.document.owners[0]?.name).toBe('Jean-Claude Carine Lamercie');
    expect(
      result.document.transactions.map((row) => [row.code, row.shares, row.price, row.shares_after]),
    ).toEqual([
      ['A', 2193, 106.82, 21878],
      ['F', 1009, 106.82, 20869],
    ]);
    expect(result.document.transactions[1]?.footnotes[0]).toMatch(
      /^Represents shares withheld to satisfy ta/,
    );
  });

  it('TSVT (.nc, whitespace-collapsed XML): Jessica Snow RSU 106,150 and an option on 70,750 at $2.64', () => {
    const document = ownership('form4', 'more', 'edgartools', 'localstorage__0001562180-25-000280.nc.txt');
    expect(document.issuer.ticker).toBe('TSVT');
    expect(document.owners[0]?.name).toBe('Snow Jessica');
    expect(document.transactions[0]).toMatchObject({ code: 'A', shares: 106150, shares_after: 253329 });
    expect(document.transactions[1]).toMatchObject({
      table: 'derivative',
      shares: 70750,
      conversion_price: 2.64,
      expiration_date: '2035-01-06',
    });
  });

  it('secform4project submissions: DKNG, ZIP, AOSL, JBLU', () => {
    const dkng = ownership(
      'form4',
      'more',
      'secform4project',
      'draftking_multi_disposal.0001104659-25-025206.submission.txt',
    );
    expect(dkng.owners[0]).toMatchObject({ name: 'Dodge R Stanton', officer_title: 'Chief Legal Officer' });
    expect(
      dkng.transactions.map((row) => [
        row.date,
        row.code,
        row.shares,
        row.price,
        row.shares_after,
        row.ten_b5_1,
      ]),
    ).toEqual([
      ['2025-03-14', 'S', 49252, 37.59, 710145, true],
      ['2025-03-14', 'S', 3525, 38.05, 706620, true],
      ['2025-03-17', 'S', 52777, 39, 653843, true],
    ]);
    expect(dkng.transactions[0]?.footnotes[0]).toMatch(/^The reported sale was made pursuant to a/);

    const zip = ownership(
      'form4',
      'more',
      'secform4project',
      'RSU_with_disposal.0001617553-25-000024.submission.txt',
    );
    expect(zip.owners[0]).toMatchObject({ name: 'TRAVERS DAVID', officer_title: 'President' });
    expect(zip.transactions.filter((row) => row.table === 'non_derivative')).toHaveLength(5);
    expect(zip.transactions.filter((row) => row.table === 'derivative')).toHaveLength(4);
    expect(zip.transactions.filter((row) => row.code === 'M')).toHaveLength(8);
    expect(zip.transactions[4]).toMatchObject({
      code: 'F',
      shares: 33148,
      price: 5.96,
      shares_after: 1138960,
    });

    const aosl = ownership(
      'form4',
      'more',
      'secform4project',
      'multi_standard_acquisition.0001387467-25-000038.submission.txt',
    );
    expect(aosl.issuer.ticker).toBe('AOSL');
    expect(aosl.transactions.map((row) => [row.code, row.shares, row.price])).toEqual([
      ['A', 10000, 0],
      ['F', 2954, 27.61],
      ['F', 1897, 27.61],
      ['A', 10000, 0],
    ]);

    const jblu = ownership(
      'form4',
      'more',
      'secform4project',
      'jetblue_RSU_acquisition.0001158463-25-000044.submission.txt',
    );
    expect(jblu.owners[0]?.name).toBe('Clements Carol Ann');
    expect(jblu.transactions).toHaveLength(1);
    expect(jblu.transactions[0]).toMatchObject({
      table: 'derivative',
      code: 'A',
      shares: 110474,
      price: null,
      shares_after: 294910,
      underlying_security: 'Common Stock',
    });
  });

  it('go-edgar cases: ARWR footnotes, BDX remarks 10b5-1, PMN X codes, WVE derivatives', () => {
    const arwr = ownership('form4', 'go-edgar', 'arrowhead_footnotes.input.xml');
    expect(arwr.aff_10b5_one).toBe(true);
    expect(arwr.transactions[0]).toMatchObject({
      code: 'S',
      shares: 3090,
      price: 66.7,
      shares_after: 40510,
      ten_b5_1: true,
    });
    expect(arwr.transactions[0]?.footnotes[1]).toMatch(/prices ranging from \$66\.52 to \$67\.40/);

    const bdx = ownership('form4', 'go-edgar', 'beckton_dickerson_remarks_10b51.input.xml');
    expect(bdx.transactions[0]).toMatchObject({
      code: 'S',
      shares: 74,
      price: 196.08,
      ten_b5_1: true,
      ten_b5_1_adopted: '2025-02-07',
    });

    const pmn = ownership('form4', 'go-edgar', 'promis_neuro_x_codes.input.xml');
    expect(pmn.owners[0]).toMatchObject({
      name: 'Jeremy M. Sclar 2012 Irrevocable Family Trust',
      is_ten_percent_owner: true,
    });
    expect(pmn.transactions.filter((row) => row.code === 'X')).toHaveLength(6);
    expect(pmn.transactions[6]).toMatchObject({
      table: 'derivative',
      date: '2025-07-29',
      code: 'P',
      shares: 3139533,
      price: null,
    });

    const wve = ownership('form4', 'go-edgar', 'wave_derivatives.input.xml');
    expect(wve.transactions).toHaveLength(16);
    expect(wve.transactions[0]).toMatchObject({
      code: 'M',
      shares: 60000,
      price: 2.83,
      ten_b5_1: true,
      ten_b5_1_adopted: '2025-03-13',
    });
    expect(wve.transactions[11]).toMatchObject({
      table: 'derivative',
      code: 'A',
      acquired_disposed: 'D',
      conversion_price: 2.83,
      ten_b5_1: false,
    });
  });

  it('agrees with go-edgar on every compared field of its five cases', () => {
    const dir = related('form4', 'go-edgar');
    const cases = readdirSync(dir).filter((name) => name.endsWith('.input.xml'));
    expect(cases).toHaveLength(5);
    for (const input of cases) {
      const expected = JSON.parse(
        readFileSync(join(dir, input.replace('.input.xml', '.expected.json')), 'utf8'),
      );
      const comparison = compareWithGoEdgar(expected, ownership('form4', 'go-edgar', input));
      expect(comparison.disagreements, input).toEqual([]);
      expect(comparison.fields.reduce((sum, field) => sum + field.total, 0)).toBeGreaterThan(20);
    }
  });

  it('records what it cannot read: a 2000 text Form 4 is unsupported, a bare header has no document', () => {
    const old = parseSecDocument(read('form4', 'edgartools', 'sgml__0001094891-00-000193.txt'));
    expect(old).toMatchObject({
      kind: 'unsupported',
      form: '4',
      header: { accession_number: '0001094891-00-000193', issuer_cik: '0000911787' },
    });
    const header = parseSecDocument(read('form4', 'edgartools', 'secheader.4.evercommerce.txt'));
    expect(header).toMatchObject({
      kind: 'unsupported',
      reason: 'an EDGAR header without any document',
      header: { accession_number: '0001140361-23-028639', issuer_name: 'EverCommerce Inc.' },
    });
    const index = parseSecDocument(read('form4', 'edgartools', 'headers__form4.index-headers.html'));
    expect(index).toMatchObject({
      kind: 'unsupported',
      header: { accession_number: '0001062993-24-012217', issuer_name: 'UFP TECHNOLOGIES INC' },
    });
  });
});

describe.skipIf(!dataDir)('Schedules 13D/13G (real)', () => {
  it('13D XML (issuerCIK casing): BML Investment Partners 8.5% and Leonard 9.9% of Aadi Bioscience', () => {
    const document = schedule('sc13', 'edgartools', 'schedule13d.xml');
    expect(document).toMatchObject({
      form: 'SC 13D',
      format: 'xml',
      event_date: '2024-12-31',
      amendment_number: null,
    });
    expect(document.issuer).toEqual({
      cik: '0001422142',
      cusip: '00032Q104',
      name: 'Aadi Bioscience, Inc.',
      ticker: null,
    });
    expect(document.persons).toEqual([
      {
        name: 'BML Investment Partners, L.P.',
        cik: '0001373604',
        type: 'PN',
        sole_voting: 0,
        shared_voting: 2100000,
        sole_dispositive: 0,
        shared_dispositive: 2100000,
        aggregate_amount: 2100000,
        percent_of_class: 8.5,
      },
      {
        name: 'Leonard Braden Michael',
        cik: '0001373603',
        type: 'IN',
        sole_voting: 335000,
        shared_voting: 2100000,
        sole_dispositive: 335000,
        shared_dispositive: 2100000,
        aggregate_amount: 2435000,
        percent_of_class: 9.9,
      },
    ]);
  });

  it('13D XML with a nested CUSIP: ARCH Venture Fund XII in Seaport Therapeutics', () => {
    const document = schedule('sc13', 'edgartools', 'schedule13d_nested_cusip.xml');
    expect(document.issuer).toMatchObject({
      cik: '0002042347',
      cusip: '81221K108',
      name: 'Seaport Therapeutics, Inc.',
    });
    expect(document.event_date).toBe('2026-05-04');
    expect(document.persons[0]).toMatchObject({
      name: 'ARCH Venture Fund XII, L.P.',
      cik: '0001906837',
      shared_voting: 6294951,
      percent_of_class: 11.9,
    });
    expect(document.persons[3]).toMatchObject({ name: 'Robert Nelsen', type: 'IN' });
  });

  it('13G XML after a blank line (issuerCik casing): Marex 10,000,000 = 5.1% of Jushi', () => {
    const document = schedule('sc13', 'edgartools', 'schedule13g.xml');
    expect(document).toMatchObject({ form: 'SC 13G', event_date: '2025-11-19', filer_cik: '0002048490' });
    expect(document.issuer).toMatchObject({
      cik: '0001909747',
      cusip: '48213Y107',
      name: 'Jushi Holdings Inc.',
    });
    expect(
      document.persons.map((person) => [
        person.name,
        person.type,
        person.sole_voting,
        person.aggregate_amount,
        person.percent_of_class,
      ]),
    ).toEqual([
      ['Marex Securities Products Inc.', 'CO', 10000000, 10000000, 5.1],
      ['Marex Group plc', 'OO', 10000000, 10000000, 5.1],
    ]);
  });

  it('13G/A XML amendment 3 with nested CUSIP: Pentwater 22.2% of Avis Budget', () => {
    const document = schedule('sc13', 'edgartools', 'schedule13g_nested_cusip.xml');
    expect(document).toMatchObject({ form: 'SC 13G/A', amendment_number: 3, event_date: '2026-03-31' });
    expect(document.issuer).toMatchObject({
      cik: '0000723612',
      cusip: '053774105',
      name: 'AVIS BUDGET GROUP, INC.',
    });
    expect(document.persons[0]).toMatchObject({
      name: 'Pentwater Capital Management LP',
      type: 'IA',
      shared_voting: 7824100,
      percent_of_class: 22.2,
    });
    expect(document.persons[1]).toMatchObject({ name: 'Matthew Halbower', type: 'HC' });
  });

  it('laimis samples: Pictet 5,288,262 (5.0%) of Elastic; FMR 1.6% of Doximity (13G/A no. 5)', () => {
    const elastic = schedule('sc13', 'more', 'laimis-stock-analysis', 'sample_schedule_13d.xml');
    expect(elastic.issuer).toMatchObject({ cik: '0001707753', cusip: 'N14506104', name: 'Elastic N.V.' });
    expect(elastic.persons[0]).toMatchObject({
      name: 'PICTET ASSET MANAGEMENT SA',
      sole_voting: 5274370,
      sole_dispositive: 5288262,
      aggregate_amount: 5288262,
      percent_of_class: 5,
    });
    const doximity = schedule('sc13', 'more', 'laimis-stock-analysis', 'sample_schedule_13g.xml');
    expect(doximity).toMatchObject({ form: 'SC 13G/A', amendment_number: 5, event_date: '2025-12-31' });
    expect(doximity.issuer).toMatchObject({ cik: '0001516513', cusip: null, name: 'DOXIMITY INC' });
    expect(doximity.persons[0]).toMatchObject({
      name: 'FMR LLC',
      type: 'HC',
      sole_voting: 2155851.97,
      aggregate_amount: 2164071.69,
      percent_of_class: 1.6,
    });
  });

  it('legacy HTML 13D/A: Baker Bros. 22.9% of Bicycle Therapeutics (amendment 2)', () => {
    const document = schedule('sc13', 'go-edgar', '13d_2024_1.html');
    expect(document).toMatchObject({
      form: 'SC 13D/A',
      format: 'html',
      amendment_number: 2,
      event_date: '2024-12-13',
    });
    expect(document.issuer).toMatchObject({ cusip: '088786108', name: 'Bicycle Therapeutics plc' });
    expect(document.persons.map((person) => person.name)).toEqual([
      'Baker Bros. Advisors LP',
      'Baker Bros. Advisors (GP) LLC',
      'Julian C. Baker',
      'Felix J. Baker',
    ]);
    expect(document.persons[0]).toMatchObject({
      type: 'IA, PN',
      sole_voting: 10885357,
      shared_voting: 0,
      aggregate_amount: 10885357,
      percent_of_class: 22.9,
    });
  });

  it('legacy HTML 13D/A no. 11: BeiGene, Felix Baker 125,276,610 = 9.0%, an empty shared row stays null', () => {
    const document = schedule('sc13', 'go-edgar', '13d_2024_2.html');
    expect(document).toMatchObject({ amendment_number: 11, event_date: '2024-12-09' });
    expect(document.issuer).toMatchObject({ cusip: '07725L102', name: 'BeiGene, Ltd.' });
    const felix = document.persons.find((person) => person.name === 'Felix J. Baker');
    expect(felix).toMatchObject({
      sole_voting: 125276610,
      shared_voting: null,
      aggregate_amount: 125276610,
      percent_of_class: 9,
    });
    expect(document.persons.find((person) => person.name === 'FBB3 LLC')).toMatchObject({
      sole_voting: 144517,
      percent_of_class: null,
    });
  });

  it('legacy HTML 13D (original) and 13G/A: vTv 4.99%, Invitae 8.9%', () => {
    const vtv = schedule('sc13', 'go-edgar', 'vtv_13d_item4.html');
    expect(vtv).toMatchObject({ form: 'SC 13D', amendment_number: null, event_date: '2024-02-27' });
    expect(vtv.issuer).toMatchObject({ cusip: '918385204', name: 'vTv Therapeutics Inc.' });
    expect(vtv.persons[0]).toMatchObject({ aggregate_amount: 122664, percent_of_class: 4.99 });
    const invitae = schedule('sc13', 'go-edgar', 'invitae_13g_2021.html');
    expect(invitae).toMatchObject({ form: 'SC 13G/A', amendment_number: 3, event_date: '2020-12-31' });
    expect(invitae.issuer).toMatchObject({ cusip: '46185L103', name: 'Invitae Corporation' });
    expect(invitae.persons[0]).toMatchObject({
      sole_voting: 15774095,
      shared_voting: 0,
      percent_of_class: 8.9,
    });
  });

  it('legacy 13G HTML and text: Millennium at 0.0% of Livent, BlackRock 17.1% of Trinity', () => {
    const livent = schedule('sc13', 'edgartools', 'SC-13G-DOCUMENT.html');
    expect(livent).toMatchObject({ form: 'SC 13G', event_date: '2023-12-29' });
    expect(livent.issuer).toMatchObject({ cusip: '53814L108', name: 'LIVENT CORPORATION' });
    expect(livent.persons.map((person) => [person.name, person.type, person.percent_of_class])).toEqual([
      ['ICS Opportunities, Ltd.', 'CO', 0],
      ['Millennium Management LLC', 'OO', 0],
      ['Millennium Group Management LLC', 'OO', 0],
      ['Israel A. Englander', 'IN', 0],
    ]);
    const trinity = schedule('sc13', 'edgartools', 'SG-13G-DOCUMENT-WITH-TEXT.html');
    expect(trinity).toMatchObject({
      form: 'SC 13G/A',
      format: 'text',
      amendment_number: 3,
      event_date: '2023-12-31',
    });
    expect(trinity.issuer).toMatchObject({ cusip: '896522109', name: 'TRINITY INDUSTRIES INC' });
    expect(trinity.persons).toEqual([
      {
        name: 'BlackRock, Inc.',
        cik: null,
        type: 'HC',
        sole_voting: 13767282,
        shared_voting: 0,
        sole_dispositive: 13967335,
        shared_dispositive: 0,
        aggregate_amount: 13967335,
        percent_of_class: 17.1,
      },
    ]);
  });
});
