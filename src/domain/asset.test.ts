// Asset names as filed: the Senate eFD's HTML detail block under the name (the strings below are
// constructed in its documented shape, not copied from a filing) and House option terms in prose.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AssetDetails,
  decodeEntities,
  normalizeAssetType,
  optionTermsFromText,
  parseAssetDescription,
  parseShortDate,
  stripTags,
} from './asset.js';

describe('decodeEntities', () => {
  it.each([
    ['AT&amp;T Inc.', 'AT&T Inc.'],
    ['AT&AMP;T', 'AT&T'],
    ['&lt;b&gt;', '<b>'],
    ['&quot;Q&quot; &apos;A&apos;', '"Q" \'A\''],
    ['a&nbsp;b', 'a b'],
    ['Moody&#39;s', "Moody's"],
    ['Moody&#x27;s', "Moody's"],
    ['Moody&#X27;s', "Moody's"],
    ['&#x1F4C8;', '\u{1F4C8}'],
    ['&#x10FFFF;', '\u{10FFFF}'],
    ['&copy; &unknown; & amp; &amp', '&copy; &unknown; & amp; &amp'],
  ])('decodes %j as %j', (text, decoded) => {
    expect(decodeEntities(text)).toBe(decoded);
  });

  // Regression: a numeric entity past the last code point threw a RangeError out of the parser.
  it.each(['&#99999999;', '&#x110000;', '&#xFFFFFFFFFF;', '&#1114112;'])(
    'keeps %j, which names no character',
    (text) => {
      expect(decodeEntities(`a${text}b`)).toBe(`a${text}b`);
    },
  );

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), (text, code) => {
        expect(typeof decodeEntities(`${text}&#${code * 977};&#x${code.toString(16)};`)).toBe('string');
      }),
      { numRuns: 200 },
    );
  });
});

describe('stripTags', () => {
  it.each([
    ['Apple Inc.', 'Apple Inc.'],
    ['<b>Apple</b>Inc.', 'Apple Inc.'],
    ['Apple<br>Inc.', 'Apple Inc.'],
    ['Apple<BR/>Inc.', 'Apple Inc.'],
    ['Apple<br />Inc.', 'Apple Inc.'],
    ['  AT&amp;T \n\t Inc.  ', 'AT&T Inc.'],
    ['&lt;b&gt;', '<b>'],
  ])('reads %j as %j', (html, text) => {
    expect(stripTags(html)).toBe(text);
  });
});

const EFD_OPTION =
  'Acme Widgets Company <div class="text-muted">Option Type: Put <br><em>Strike price:</em> $1,120.50 <br> <em>Expires:</em> 05/15/2020 </div>';
const EFD_BOND =
  'Acme Widgets 3.875% Notes <div class="text-muted"><em>Rate/Coupon:</em> 3.875%<br> <em>Matures:</em> 09/15/2021</div>';

describe('parseAssetDescription', () => {
  it('lifts the option terms out of an eFD detail block and keeps the name', () => {
    expect(parseAssetDescription(EFD_OPTION)).toEqual({
      description: 'Acme Widgets Company',
      optionType: 'Put',
      strikePrice: 1120.5,
      optionExpiry: '2020-05-15',
      details: 'Option Type: Put Strike price: $1,120.50 Expires: 05/15/2020',
    });
    expect(
      parseAssetDescription('X Corp <DIV>option type:CALL strike price: 45 expires: 1/7/22</DIV>'),
    ).toMatchObject({
      description: 'X Corp',
      optionType: 'Call',
      strikePrice: 45,
      optionExpiry: '2022-01-07',
    });
  });

  it('keeps other details as text, without option terms', () => {
    expect(parseAssetDescription(EFD_BOND)).toEqual({
      description: 'Acme Widgets 3.875% Notes',
      optionType: null,
      strikePrice: null,
      optionExpiry: null,
      details: 'Rate/Coupon: 3.875% Matures: 09/15/2021',
    });
  });

  it('reads the terms of a detail block however it is spaced', () => {
    expect(
      parseAssetDescription('Z Corp <div>Option Type:Call<br>Strike price:$12.375<br>Expires:1/7/2022</div>'),
    ).toMatchObject({ optionType: 'Call', strikePrice: 12.375, optionExpiry: '2022-01-07' });
  });

  it('reads no terms from a detail block that states none, nor an empty one', () => {
    expect(parseAssetDescription('Y Corp <div></div>')).toEqual({
      description: 'Y Corp',
      optionType: null,
      strikePrice: null,
      optionExpiry: null,
      details: null,
    });
  });

  it('does not read prose terms from a name with a detail block (the block states them)', () => {
    expect(parseAssetDescription('Call options Strike $60 <div>Rate/Coupon: 1%</div>')).toMatchObject({
      optionType: null,
      strikePrice: null,
      optionExpiry: null,
    });
  });

  it.each([null, undefined, ''])('reads %j as an empty name', (raw) => {
    expect(parseAssetDescription(raw)).toEqual({
      description: '',
      optionType: null,
      strikePrice: null,
      optionExpiry: null,
      details: null,
    });
  });

  it.each([
    ['Call option, strike of $160 expires 9/16/2022', 'Call', 160, '2022-09-16'],
    ['Puts option strike $5', 'Put', 5, null],
    ['Options - Call, Strike $7.5', 'Call', 7.5, null],
    ['Option Puts expiry 1/2/23', 'Put', null, '2023-01-02'],
    ['Acme Call, Options strike $60', 'Call', 60, null],
  ])('reads the House prose %j', (name, optionType, strikePrice, optionExpiry) => {
    expect(parseAssetDescription(name)).toMatchObject({
      description: name,
      optionType,
      strikePrice,
      optionExpiry,
      details: null,
    });
  });

  it.each([
    'Option Care Health, Inc. - Common Stock',
    'Callaway Golf Options Trading Desk Inc.',
    'GENERAL MTRS CO INC NOTE 5.1% 01/172024 CALL MAKE WHOLE',
    'Global X NASDAQ-100 Covered Call ETF',
    'MS Contingent Autocall Intel (Rate/Coupon: 8.2% Matures: 12/9/2022)',
  ])('reads no option terms from %j', (name) => {
    expect(parseAssetDescription(name)).toMatchObject({
      optionType: null,
      strikePrice: null,
      optionExpiry: null,
    });
  });
});

describe('option terms of exercises and short forms (real House descriptions)', () => {
  it.each([
    ['Tesla Inc - Exercised 25 Call options 2.5K shares expiring 3/18/22 @ $500', 'Call', 500, '2022-03-18'],
    ['Tesla Inc - Excercised Call options expiring 3/18/22 @ $500', 'Call', 500, '2022-03-18'],
    [
      'Walt Disney Company - Exercised 100 Call options (10k shares) expiry 01/21/2022 at $100',
      'Call',
      100,
      '2022-01-21',
    ],
    ['Wynn Resorts Limited - PUT 09/17/21 @ $100', 'Put', 100, '2021-09-17'],
    ['NVIDIA Corporation - PUT for 09/17/21 @ 580', 'Put', 580, '2021-09-17'],
    ['Generac Holdings Inc. Call Opt strike @ $370 exp 7/16/21', 'Call', 370, '2021-07-16'],
    ['Micron Technology Inc - 100 CALL opts with strike of $50 expiry 9/16/22', 'Call', 50, '2022-09-16'],
    [
      'Exercised 500 call options purchased 11/22/23 (50,000 shares) at a strike price of $12 with an expiration date of 12/20/24.',
      'Call',
      12,
      '2024-12-20',
    ],
  ])('reads %j', (text, optionType, strikePrice, optionExpiry) => {
    expect(parseAssetDescription(text)).toMatchObject({ optionType, strikePrice, optionExpiry });
  });

  it('takes the year of an expiry written without one from the trade date', () => {
    expect(optionTermsFromText('Square inc - Call Opts at $220, expires 4/9', '2021-03-20')).toEqual({
      optionType: 'Call',
      strikePrice: 220,
      optionExpiry: '2021-04-09',
    });
    expect(
      optionTermsFromText('Mastercard Incorporated - Jul 16 $320 PUT option', '2021-08-02').optionExpiry,
    ).toBe('2022-07-16');
  });
});

describe('optionTermsFromText', () => {
  it.each([
    [
      'Purchased 50 call options with a strike price of $150 and an expiration date of 1/16/26',
      'Call',
      150,
      '2026-01-16',
    ],
    ['Call option, strike of $160 expires 9/16/2022', 'Call', 160, '2022-09-16'],
    ['Call Options $145 strike Expire 09/16/2022', 'Call', 145, '2022-09-16'],
    ['Call options Strike $60, expiry 02/18/22', 'Call', 60, '2022-02-18'],
    ['Put options strike at $1,380.50 expiring 12/16/22', 'Put', 1380.5, '2022-12-16'],
    ['Puts, strike price $ 12 expiration: 3/1/2024', 'Put', 12, '2024-03-01'],
    ['calls expiring on 6/7/24 strike $3', 'Call', 3, '2024-06-07'],
    ['Call for 6/7/24 $3 call', 'Call', 3, '2024-06-07'],
    ['March 19, 2021 $180 PUT Option', 'Put', 180, '2021-03-19'],
    ['Jun 18 2021 $3,060.00 PUT option', 'Put', 3060, '2021-06-18'],
    ['Sept. 17, 2021 $50 call', 'Call', 50, '2021-09-17'],
    ['Feb 28, 2021 $180 PUT Option', 'Put', 180, '2021-02-28'],
    // Filers' spacing varies: runs of spaces, none after a comma or a dollar sign.
    ['Jun  18,2021  $ 3,060.00  PUT option', 'Put', 3060, '2021-06-18'],
    ['Call strike  price  of  $12.375', 'Call', 12.375, null],
    ['Put strike at$5', 'Put', 5, null],
    ['Call $145  strike', 'Call', 145, null],
    ['Call expiration  date 1/2/23', 'Call', null, '2023-01-02'],
    ['Call expiration date  of 1/2/23', 'Call', null, '2023-01-02'],
    ['Call expiring  on 6/7/24', 'Call', null, '2024-06-07'],
    ['Smarch 19, 2021 $180 PUT Option', 'Put', 180, null],
    ['Feb 30, 2021 $180 PUT Option', 'Put', 180, null],
    ['$55 put', 'Put', 55, null],
    ['an option', null, null, null],
    ['Recall options', null, null, null],
    ['Call expires 13/45/2022', 'Call', null, null],
  ])('reads %j', (text, optionType, strikePrice, optionExpiry) => {
    expect(optionTermsFromText(text)).toEqual({ optionType, strikePrice, optionExpiry });
  });

  it('prefers a written expiry date over a month-name date', () => {
    expect(optionTermsFromText('March 19, 2021 $180 PUT expires 4/16/2021').optionExpiry).toBe('2021-04-16');
  });

  it('reads the strike before the kind when the text states no strike word', () => {
    expect(optionTermsFromText('Put option at $20 strike').strikePrice).toBe(20);
    expect(optionTermsFromText('Put option at $20 for cash').strikePrice).toBeNull();
  });
});

describe('parseShortDate', () => {
  it.each([
    ['9/16/22', '2022-09-16'],
    [' 09/16/22 ', '2022-09-16'],
    ['9/16/2022', '2022-09-16'],
    ['1/2/05', '2005-01-02'],
    ['2/29/23', null],
    ['9/16/202', null],
    ['9-16-22', null],
    ['111/1/22', null],
    ['', null],
  ])('reads %j as %j', (text, date) => {
    expect(parseShortDate(text)).toBe(date);
  });
});

describe('normalizeAssetType', () => {
  const plain: AssetDetails = {
    description: 'Acme Widgets Company',
    optionType: null,
    strikePrice: null,
    optionExpiry: null,
    details: null,
  };

  it.each([
    ['Stock', 'Stock'],
    ['STOCK', 'Stock'],
    ['Stock Option', 'Option'],
    ['stock   option', 'Option'],
    ['Option', 'Option'],
    ['Options', 'Option'],
    ['Other Securities', 'Other Securities'],
    ['Corporate Bond', 'Corporate Bond'],
    ['municipal security', 'Municipal Security'],
    ['Non-Public Stock', 'Non-Public Stock'],
    ['cryptocurrency', 'Cryptocurrency'],
    ['Commodities/Futures Contract', 'Commodities/Futures Contract'],
    ['etf', 'ETF'],
    ['Mutual Fund', 'Mutual Fund'],
    ['Government Security', 'Government Security'],
    ['  Private   Equity ', 'Private Equity'],
  ])('serves the filed type %j as %j', (raw, type) => {
    expect(normalizeAssetType(raw, 'ACME', plain)).toBe(type);
  });

  it('serves Option whenever option terms were read, whatever the filed type says', () => {
    expect(normalizeAssetType('Stock', 'ACME', { ...plain, optionType: 'Put' })).toBe('Option');
    expect(normalizeAssetType(null, 'N/A', { ...plain, optionType: 'Call' })).toBe('Option');
  });

  it('fills a blank type: Option for a name describing options, Stock with a ticker, nothing without', () => {
    expect(normalizeAssetType('', 'ACME', { ...plain, description: 'Acme - Call Options' })).toBe('Option');
    expect(normalizeAssetType(null, 'N/A', { ...plain, description: 'Acme puts option' })).toBe('Option');
    expect(normalizeAssetType('  ', 'ACME', { ...plain, description: 'Option Care Health' })).toBe('Stock');
    expect(normalizeAssetType(undefined, 'ACME', plain)).toBe('Stock');
    expect(normalizeAssetType(null, 'N/A', plain)).toBeNull();
    expect(normalizeAssetType(null, 'N/A', { ...plain, description: 'Recall options' })).toBeNull();
  });
});
