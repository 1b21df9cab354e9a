// USAspending readers on recorded real answers of api.usaspending.gov (award search, award detail)
// and the real FPDS rows of the Data Broker test set. Values asserted are the documents' own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireDataDir } from '../../../test-support/data-dir.js';
import {
  mergeAwardDetail,
  parseAwardDetail,
  parseFpdsRow,
  parseSpendingByAward,
  UsaspendingFormatError,
} from './award.js';

const dir = join(requireDataDir(), 'related/usaspending');
const json = (path: string): unknown => JSON.parse(readFileSync(join(dir, path), 'utf8'));

describe('spending_by_award (real recorded answers)', () => {
  it('reads DoD awards to MIT: award key, PIID, UEI, amount to the cent, agencies, dates', () => {
    const page = parseSpendingByAward(json('bid-buster-exploration/01-award-search-dod-mit.json'));
    expect(page.page).toBe(1);
    expect(page.hasNext).toBe(true);
    expect(page.awards).toHaveLength(10);
    expect(page.awards[0]).toMatchObject({
      sourceId: 'CONT_AWD_0007_9700_FA870215D0001_9700',
      awardId: '0007',
      recipientName: 'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
      recipientUei: 'SN5KKUDR9LY8',
      amount: 1594101040.69,
      awardingAgency: 'Department of Defense',
      awardingSubAgency: 'Department of the Air Force',
      awardDate: '2016-06-03',
      endDate: '2030-02-28',
      awardType: 'DELIVERY ORDER',
    });
  });

  it('reads the non-competed DoD awards (no agency column asked for)', () => {
    const page = parseSpendingByAward(json('bid-buster-exploration/07-non-competed-dod.json'));
    expect(page.awards.map((award) => award.recipientName).slice(0, 4)).toEqual([
      'LOCKHEED MARTIN CORPORATION',
      'ELECTRIC BOAT CORPORATION',
      'ELECTRIC BOAT CORPORATION',
      'THE BOEING COMPANY',
    ]);
    expect(page.awards[0]).toMatchObject({
      awardId: 'N0001917C0001',
      amount: 35135514910.2,
      awardingAgency: null,
      awardingSubAgency: 'Department of the Navy',
    });
  });

  it('reads NAICS/PSC objects and the place of performance (NASA contracts)', () => {
    const jwst = parseSpendingByAward(json('usaspending-orm-fixtures/spending_by_award_contracts.json'))
      .awards[0];
    expect(jwst).toMatchObject({
      awardId: 'GSFC0200211DNAS502200',
      recipientName: 'NORTHROP GRUMMAN SYSTEMS CORPORATION',
      recipientUei: 'VSBAFMDKTWL4',
      amount: 4345585999.01,
      naicsCode: '336414',
      pscCode: 'AR34',
      placeCity: 'REDONDO BEACH',
      placeState: 'CA',
    });
    const search = parseSpendingByAward(
      json('usaspending-orm-fixtures/awards__search_results_contracts.json'),
    );
    const boeing = search.awards.find((award) => award.awardId === 'NAS1510000');
    expect(boeing).toMatchObject({
      amount: 22108961401.86,
      awardDate: '1993-11-15',
      recipientUei: 'HLWWEH2CCXW5',
    });
    expect(search.awards.find((award) => award.awardId === 'NNJ06TA25C')?.recipientName).toBe(
      'LOCKHEED MARTIN CORP',
    );
  });

  it('leaves out rows that are not contracts, saying why; refuses other answers', () => {
    const grants = parseSpendingByAward(json('usaspending-orm-fixtures/awards__search_results_grants.json'));
    expect(grants.awards).toEqual([]);
    expect(grants.skipped.length).toBeGreaterThan(0);
    expect(grants.skipped[0]?.reason).toMatch(/not a contract award|no generated_internal_id/);
    expect(() => parseSpendingByAward({ detail: 'oops' })).toThrow(UsaspendingFormatError);
  });
});

describe('award detail (real)', () => {
  it('reads the MIT delivery order with its parent, NAICS and place of performance', () => {
    const detail = parseAwardDetail(json('bid-buster-exploration/03-award-detail-sample.json'));
    expect(detail).toMatchObject({
      sourceId: 'CONT_AWD_0007_9700_FA870215D0001_9700',
      awardId: '0007',
      parentName: 'MASSACHUSETTS INSTITUTE OF TECHNOLOGY',
      parentUei: 'SN5KKUDR9LY8',
      amount: 1594101040.69,
      awardingAgency: 'Department of Defense',
      awardingSubAgency: 'Department of the Air Force',
      awardDate: '2016-06-03',
      naicsCode: '541712',
      pscCode: 'AC61',
      placeCity: 'LEXINGTON',
      placeState: 'MA',
    });
  });

  it('completes a search row with the detail', () => {
    const row = parseSpendingByAward(json('usaspending-orm-fixtures/awards__search_results_contracts.json'))
      .awards[0];
    const detail = parseAwardDetail(json('usaspending-orm-fixtures/awards__contract.json'));
    expect(row && mergeAwardDetail(row, detail)).toMatchObject({
      sourceId: 'CONT_AWD_80GSFC18C0008_8000_-NONE-_-NONE-',
      amount: 172213419.67,
      naicsCode: '541713',
      parentName: 'THE UNIVERSITY OF IOWA',
      origin: 'award_detail',
    });
  });
});

describe('FPDS rows (real detached_award_procurement rows of the Data Broker test set)', () => {
  it('reads the GEO Group private-prison action', () => {
    const data = json('usaspending-api_etl_test_data.json') as Record<string, unknown[]>;
    const key = Object.keys(data).find((query) => query.includes('FROM detached_award_procurement'));
    const rows = (key ? data[key] : []) ?? [];
    expect(rows).toHaveLength(10);
    const geo = parseFpdsRow(rows[0]);
    expect(geo).toMatchObject({
      sourceId: 'FPDS_1540-none-DJB1PC01369-none--none-',
      awardId: 'DJB1PC013',
      recipientName: 'GEO GROUP, INC., THE',
      parentName: 'THE GEO GROUP INC',
      amount: 0,
      awardingAgency: 'Department of Justice (DOJ)',
      awardingSubAgency: 'FEDERAL PRISON SYSTEM / BUREAU OF PRISONS',
      awardDate: '2017-05-01',
      naicsCode: '561210',
      description: 'OPERATION OF PRIVATE PRISON',
    });
    expect(rows.map(parseFpdsRow).map((row) => row.amount)).toEqual([
      0, 11747.25, 1474.23, 533.95, 366, 5537.26, 561, 0, 1631.8, 366,
    ]);
  });
});
