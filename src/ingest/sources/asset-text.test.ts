import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOT_TICKERS, repairLegacyCase, splitAssetCode, splitTicker } from './asset-text.js';

describe('splitTicker', () => {
  it.each([
    ['Apple Inc. - Common Stock (AAPL)', false, 'AAPL', 'Apple Inc. - Common Stock'],
    ['Walmart, Inc. (WMT)', false, 'WMT', 'Walmart, Inc.'],
    ['Berkshire Hathaway Inc. (BRK.B)', false, 'BRK.B', 'Berkshire Hathaway Inc.'],
    [
      'Mercato Partners Travers IV QP, LP (GLAS Funds, LP)',
      false,
      'N/A',
      'Mercato Partners Travers IV QP, LP (GLAS Funds, LP)',
    ],
    ['Acme Holdings (ADR)', false, 'N/A', 'Acme Holdings (ADR)'],
    ['COCA-COLA COMPANY (THE) CMN', false, 'N/A', 'COCA-COLA COMPANY (THE) CMN'],
    ['A.O. SMITH CORP (DEL) CMN', false, 'N/A', 'A.O. SMITH CORP (DEL) CMN'],
    ['Apple Inc. (AAPl)', true, 'AAPL', 'Apple Inc.'],
    ['Tesla, Inc. (TSlA)', true, 'TSLA', 'Tesla, Inc.'],
    ['Holding (units)', true, 'N/A', 'Holding (units)'],
    ['Widget Co (aapl)', false, 'N/A', 'Widget Co (aapl)'],
  ])('%j (2021 font: %s) -> %s', (text, legacy, ticker, rest) => {
    expect(splitTicker(text, legacy)).toEqual({ ticker, rest });
  });

  it('finds any ticker written last in parentheses and never invents one', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z][A-Za-z ,.&-]{0,40}$/),
        fc.stringMatching(/^[A-Z]{1,5}$/).filter((ticker) => !NOT_TICKERS.has(ticker)),
        (name, ticker) => {
          expect(splitTicker(`${name} (${ticker})`).ticker).toBe(ticker);
          expect(splitTicker(name).ticker).toBe('N/A');
        },
      ),
    );
  });
});

describe('splitAssetCode', () => {
  it('takes the last bracketed code, upper-cased', () => {
    expect(splitAssetCode('Anaheim CA Elec util [gS]')).toEqual({ code: 'GS', rest: 'Anaheim CA Elec util' });
    expect(splitAssetCode('Alphabet Inc. (GOOGL) [OP]')).toEqual({
      code: 'OP',
      rest: 'Alphabet Inc. (GOOGL)',
    });
    expect(splitAssetCode('No code here')).toEqual({ code: null, rest: 'No code here' });
  });
});

describe('repairLegacyCase', () => {
  it.each([
    ['AllianceBernstein Holding l.P. units', 'AllianceBernstein Holding L.P. Units'],
    ['Rancho CA WTR FA DIST COMB uTIl', 'Rancho CA WTR FA DIST COMB UTIL'],
    ['los Angeles Cnty, CA MT Excise', 'Los Angeles Cnty, CA MT Excise'],
    ['Bay Area Toll RV TOll Tran', 'Bay Area Toll RV TOLL Tran'],
    ['grossmont CA Impt Sch', 'Grossmont CA Impt Sch'],
  ])('%j -> %j', (text, repaired) => expect(repairLegacyCase(text)).toBe(repaired));

  it('leaves text without the lowered capitals alone', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z][a-fh-kmnp-tv-z]{0,8}( [A-Z][a-fh-kmnp-tv-z]{0,8}){0,5}$/),
        (text) => {
          expect(repairLegacyCase(text)).toBe(text);
        },
      ),
    );
  });
});
