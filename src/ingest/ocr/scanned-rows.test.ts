// Constructed readings (what the form reader hands over for one row, made up here) through the
// rules that set each field's confidence and decide `needs_review`.
import { beforeAll, describe, expect, it } from 'vitest';
import { cell, context, houseRow } from '../../test-support/ocr-rows.js';
import type { MarkReading } from './cell-ink.js';
import { separatorsOnly } from './judged-fields.js';
import { assetLexicon, type Lexicon } from './lexicon.js';
import { scannedRow } from './scanned-rows.js';

describe('scannedRow', () => {
  let withIssuers: Lexicon;
  let withoutIssuers: Lexicon;
  beforeAll(async () => {
    withIssuers = await assetLexicon([
      'MetLife, Inc.',
      'BlackRock Funding, Inc.',
      'COLGATE PALMOLIVE CO',
      'HORTON D R INC /DE/',
      'PayPal Holdings, Inc.',
      'VISA INC.',
      'PTC INC.',
      'PROS Holdings, Inc.',
      'US Foods Holding Corp.',
      'ROPER TECHNOLOGIES INC',
      'MOODYS CORP /DE/',
      'CHARLES RIVER LABORATORIES INTERNATIONAL, INC.',
      'KKR & Co. Inc.',
      'DELTA AIR LINES, INC.',
      'Apollo Global Management, Inc.',
      'VICI PROPERTIES INC.',
      'UNIVERSAL HEALTH SERVICES INC',
      'Otis Worldwide Corp',
      'MICROCHIP TECHNOLOGY INC',
      'CORNING INCORPORATED',
      'CACI INTERNATIONAL INC /DE/',
    ]);
    withoutIssuers = await assetLexicon([]);
  });

  it('serves a cleanly read row as read', () => {
    const row = scannedRow(houseRow('METLIFE, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(row).toMatchObject({
      owner: 'Spouse',
      asset_description: 'METLIFE, INC. CMN',
      trade_type: 'Buy',
      transaction_date: '2025-01-17',
      notification_date: '2025-02-04',
      amount: { range: '$1,001 - $15,000' },
      needs_review: false,
    });
  });

  it('corrects a known misread against the issuer names, below full confidence', () => {
    const row = scannedRow(houseRow('METUFE, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(row.asset_description).toBe('METLIFE, INC. CMN');
    expect(row.confidence.asset_description).toBeLessThan(0.9);
  });

  it('without issuer names, neither corrects nor trusts a word no list holds', () => {
    const misread = scannedRow(houseRow('METUFE, INC. CMN'), { ...context, lexicon: withoutIssuers });
    expect(misread).toMatchObject({ asset_description: 'METUFE, INC. CMN', needs_review: true });
    const name = scannedRow(houseRow('LINDE PLC CMN'), { ...context, lexicon: withoutIssuers });
    expect(name).toMatchObject({ asset_description: 'LINDE PLC CMN', needs_review: true });
  });

  it("without issuer names, doubts an English word where an issuer's acronym stands", () => {
    const row = scannedRow(houseRow('COW CORPORATION CMN'), { ...context, lexicon: withoutIssuers });
    expect(row.needs_review).toBe(true);
    expect(row.reasons.join('; ')).toContain('"COW"');
  });

  it('flags a period after a whole word inside a name (a comma misread)', () => {
    const row = scannedRow(houseRow('BLACKROCK FUNDING. INC. CMN'), { ...context, lexicon: withIssuers });
    expect(row.needs_review).toBe(true);
    expect(row.reasons.join('; ')).toContain('"FUNDING." (comma?)');
  });

  it('checks a hyphenated name part by part, correcting a misread part', () => {
    const row = scannedRow(houseRow('COLGATE-PALMOUVE CO CMN'), { ...context, lexicon: withIssuers });
    expect(row.asset_description).toBe('COLGATE-PALMOLIVE CO CMN');
    expect(row.confidence.asset_description).toBeLessThan(0.9);
  });

  it("settles a doubted word by the issuer's whole name, in the case it was read", () => {
    // Asset cells of 8220750 as read: "UNES" alone is near LINES but not surely it.
    const delta = scannedRow(houseRow('DELTA AIR UNES, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(delta).toMatchObject({ asset_description: 'DELTA AIR LINES, INC. CMN', needs_review: false });
    // Two letters changed: surer than a doubt, less sure than a word read as listed.
    expect(delta.confidence.asset_description).toBeGreaterThanOrEqual(0.8);
    expect(delta.confidence.asset_description).toBeLessThan(0.9);
    const apollo = scannedRow(houseRow('Apollo Global Mamt Inc Com'), { ...context, lexicon: withIssuers });
    expect(apollo.asset_description).toBe('Apollo Global Mgmt Inc Com');
    // Without issuer names the doubt stands.
    const bare = scannedRow(houseRow('DELTA AIR UNES, INC. CMN'), { ...context, lexicon: withoutIssuers });
    expect(bare).toMatchObject({ asset_description: 'DELTA AIR UNES, INC. CMN', needs_review: true });
  });

  it("settles a doubted last word near the document's usual security type as that type", () => {
    const read = (usualSuffix: string | null) =>
      scannedRow(houseRow('METLIFE, INC. CMIN'), { ...context, lexicon: withIssuers, usualSuffix });
    expect(read('CMN')).toMatchObject({ asset_description: 'METLIFE, INC. CMN', needs_review: false });
    expect(read(null)).toMatchObject({ asset_description: 'METLIFE, INC. CMIN', needs_review: true });
  });

  it('takes initials as read: there is no word to check them against', () => {
    const row = scannedRow(houseRow('D.R. HORTON, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(row).toMatchObject({ asset_description: 'D.R. HORTON, INC. CMN', needs_review: false });
  });

  it('flags a comma after a legal form inside a name (a period misread)', () => {
    const row = scannedRow(houseRow('PAYPAL HOLDINGS, INC, CMN'), { ...context, lexicon: withIssuers });
    expect(row.needs_review).toBe(true);
    expect(row.reasons.join('; ')).toContain('"INC," (period?)');
    const clean = scannedRow(houseRow('PAYPAL HOLDINGS, INC. CMN'), { ...context, lexicon: withIssuers });
    expect(clean.needs_review).toBe(false);
  });

  it('serves an owner code both of whose letters name it, one through a lookalike', () => {
    // An owner cell of 8220750 the engine read poorly ("bc" at 0.46 for DC).
    const row = scannedRow(houseRow('METLIFE, INC. CMN', { owner: cell('bc', 0.46) }), {
      ...context,
      lexicon: withIssuers,
    });
    expect(row).toMatchObject({ owner: 'Dependent Child', needs_review: false });
    // One letter alone names the code: a repair, still doubtful.
    const single = scannedRow(houseRow('METLIFE, INC. CMN', { owner: cell('D', 0.91) }), {
      ...context,
      lexicon: withIssuers,
    });
    expect(single).toMatchObject({ owner: 'Dependent Child', needs_review: true });
  });

  it('splits a name word run into a legal form or the usual security type, and serves it', () => {
    // Asset cells of 8220834 and 8220750 as read.
    const visa = scannedRow(houseRow('VISAINC'), { ...context, lexicon: withIssuers });
    expect(visa).toMatchObject({ asset_description: 'VISA INC', needs_review: false });
    const ptc = scannedRow(houseRow('PTCINC. CMN'), { ...context, lexicon: withIssuers });
    expect(ptc).toMatchObject({ asset_description: 'PTC INC. CMN', needs_review: false });
    const roper = (usualSuffix: string | null) =>
      scannedRow(houseRow('ROPER TECHNOLOGIES INCCMN'), { ...context, lexicon: withIssuers, usualSuffix });
    expect(roper('CMN')).toMatchObject({
      asset_description: 'ROPER TECHNOLOGIES INC CMN',
      needs_review: false,
    });
    // CMN is no legal form: only a document whose names end with it says it is printed there.
    expect(roper(null).needs_review).toBe(true);
    // A name of its own that is two listed words (PROS, US) stays a guess.
    const prosus = scannedRow(houseRow('PROSUS NV'), { ...context, lexicon: withIssuers });
    expect(prosus).toMatchObject({ asset_description: 'PROS US NV', needs_review: true });
    expect(prosus.reasons.join('; ')).toContain('"PROSUS" (PROS US?)');
  });

  it('doubts a word in no list that is two listed words run together, keeping it as read', () => {
    // The space lost between a name word and an English one (as the OGE 278-T's "BELTENERGY", read
    // off a crisper copy of the scan): the engine was sure, and no list holds the word.
    const lost = scannedRow(houseRow('CORNINGGLASS WORKS'), { ...context, lexicon: withIssuers });
    expect(lost).toMatchObject({ asset_description: 'CORNINGGLASS WORKS', needs_review: true });
    expect(lost.reasons.join('; ')).toContain('"CORNINGGLASS" (CORNING GLASS?)');
    // Read with its space, the same name is served.
    const typed = scannedRow(houseRow('CORNING GLASS WORKS'), { ...context, lexicon: withIssuers });
    expect(typed).toMatchObject({ asset_description: 'CORNING GLASS WORKS', needs_review: false });
  });

  it("settles a word the lexicon would split by the issuer's whole name, when one explains it", () => {
    // 8220750 page 24: OTIS read "DTIS" by four readings of five, which the lexicon splits (DT IS).
    const otis = scannedRow(houseRow('DTIS WORLDWIDE CORPORATION CMN'), {
      ...context,
      lexicon: withIssuers,
      usualSuffix: 'CMN',
    });
    expect(otis).toMatchObject({ asset_description: 'OTIS WORLDWIDE CORPORATION CMN', needs_review: false });
    // One letter changed: below a word read as listed.
    expect(otis.confidence.asset_description).toBeLessThan(0.9);
    // Without issuer names the word stays as read, doubted; with them but none that explains a
    // split word, the split stands, doubted (PROSUS above).
    const bare = scannedRow(houseRow('DTIS WORLDWIDE CORPORATION CMN'), {
      ...context,
      lexicon: withoutIssuers,
      usualSuffix: 'CMN',
    });
    expect(bare).toMatchObject({ asset_description: 'DTIS WORLDWIDE CORPORATION CMN', needs_review: true });
  });

  it("checks a word's letters without its apostrophe, and knows security abbreviations", () => {
    const moodys = scannedRow(houseRow("MOODY'S CORPORATION CMN"), { ...context, lexicon: withIssuers });
    expect(moodys).toMatchObject({ asset_description: "MOODY'S CORPORATION CMN", needs_review: false });
    const crl = scannedRow(houseRow('CHARLES RIVER LABORATORIES INT CMN'), {
      ...context,
      lexicon: withIssuers,
    });
    expect(crl.needs_review).toBe(false);
    // A municipal issuer's abbreviations (8220834: "RURAL WTR FING AGY KY", water financing agency).
    const muni = scannedRow(houseRow('RURAL WTR FING AGY KY'), { ...context, lexicon: withIssuers });
    expect(muni).toMatchObject({ asset_description: 'RURAL WTR FING AGY KY', needs_review: false });
  });

  it('judges a checked name two of three readings agree on by its words, a doubtful or unchecked one not', () => {
    // 8220750 row 118 as read: two of three scales gave this text, every word scored 0.86 or more.
    const scores = [0.87, 0.87, 0.95, 0.9, 0.86];
    const read = (text: string, agreement: number) => ({
      ...cell(text),
      agreement,
      words: text.split(' ').map((word, index) => ({ text: word, confidence: scores[index] ?? 0.9 })),
    });
    const kkr = (agreement: number, lexicon?: Lexicon) =>
      scannedRow(houseRow('KKR & CO. INC. CMN', { asset: read('KKR & CO. INC. CMN', agreement) }), {
        ...context,
        lexicon,
      });
    expect(kkr(2 / 3, withIssuers)).toMatchObject({
      asset_description: 'KKR & CO. INC. CMN',
      needs_review: false,
    });
    expect(kkr(2 / 3, withIssuers).confidence.asset_description).toBe(0.86);
    // One reading in three: the others said something else.
    expect(kkr(1 / 3, withIssuers).needs_review).toBe(true);
    // No lexicon checked the words (the OGE reader): the split still costs.
    expect(kkr(2 / 3).needs_review).toBe(true);
    // A doubt of its own (a comma where a legal form's period belongs) keeps the split's cost.
    const paypal = scannedRow(
      houseRow('PAYPAL HOLDINGS, INC, CMN', { asset: read('PAYPAL HOLDINGS, INC, CMN', 2 / 3) }),
      { ...context, lexicon: withIssuers },
    );
    expect(paypal.needs_review).toBe(true);
  });

  it('flags option descriptions, whose small symbols the engine drops', () => {
    const row = scannedRow(houseRow('PUT/XSP 555 EXP 03/07/2025'), { ...context, lexicon: withIssuers });
    expect(row.needs_review).toBe(true);
  });

  it('flags dates that contradict each other or the filing, however clearly read', () => {
    const row = scannedRow(houseRow('METLIFE, INC. CMN', { date: cell('03/17/25') }), {
      ...context,
      lexicon: withIssuers,
    });
    expect(row.needs_review).toBe(true);
    expect(row.confidence.transaction_date).toBeLessThan(0.5);
  });

  it('takes the start of a listed word for that word cut at the column, not for two words run together', async () => {
    // 8220750 prints "MEDTRONIC PUBLIC LIMITED COMPA CMN": the filer's column cut COMPANY.
    const lexicon = await assetLexicon(['Medtronic plc', 'Ford Motor Company']);
    const row = scannedRow(houseRow('MEDTRONIC PUBLIC LIMITED COMPA CMN'), { ...context, lexicon });
    expect(row).toMatchObject({
      asset_description: 'MEDTRONIC PUBLIC LIMITED COMPA CMN',
      needs_review: false,
    });
  });

  it("serves a name read as exactly one issuer's whole name, however low the engine scored it", () => {
    const read = (text: string, spelledOtherwise: ReadonlySet<string> = new Set()) =>
      scannedRow(houseRow(text, { asset: { ...cell(text, 0.5), agreement: 1 } }), {
        ...context,
        lexicon: withIssuers,
        usualSuffix: 'CMN',
        namesSpelledOtherwise: spelledOtherwise,
      });
    const confirmed = read('PAYPAL HOLDINGS, INC. CMN');
    expect(confirmed).toMatchObject({ asset_description: 'PAYPAL HOLDINGS, INC. CMN', needs_review: false });
    expect(confirmed.confidence.asset_description).toBe(0.85);
    // Words after the issuer's name but the usual one, a stray mark, a name another row spells
    // with other stops: the engine's score stands.
    expect(read('PAYPAL HOLDINGS, INC. CMN CLASS A').needs_review).toBe(true);
    expect(read('‘PAYPAL HOLDINGS, INC. CMN').needs_review).toBe(true);
    expect(read('PAYPAL HOLDINGS, INC. CMN', new Set(['PAYPALHOLDINGSINCCMN'])).needs_review).toBe(true);
    // The period after a legal form read as a comma is still doubted.
    expect(read('PAYPAL HOLDINGS, INC, CMN').needs_review).toBe(true);
  });

  it('confirms a share class at the end of a name by the same class read surely inside it', () => {
    const read = (words: Array<[string, number]>) => {
      const text = words.map(([word]) => word).join(' ');
      const asset = {
        ...cell(text, Math.min(...words.map(([, score]) => score))),
        agreement: 1,
        words: words.map(([word, confidence]) => ({ text: word, confidence })),
      };
      return scannedRow(houseRow(text, { asset }), { ...context, lexicon: withIssuers, usualSuffix: 'CMN' });
    };
    // 8220750 row 325 as read: the class printed again after the type, scored 0.78 both times.
    const name: Array<[string, number]> = [
      ['UNIVERSAL', 0.94],
      ['HEALTH', 0.95],
      ['SVC', 0.91],
      ['CL', 0.83],
      ['B', 0.83],
      ['CMN', 0.86],
    ];
    const repeated = read([...name, ['CLASS', 0.78], ['B', 0.78]]);
    expect(repeated).toMatchObject({
      asset_description: 'UNIVERSAL HEALTH SVC CL B CMN CLASS B',
      needs_review: false,
    });
    expect(repeated.confidence.asset_description).toBe(0.83);
    // Another letter at the end, or the first class read unsurely: the engine's score stands.
    expect(read([...name, ['CLASS', 0.78], ['A', 0.78]]).needs_review).toBe(true);
    const unsure = name.map(([word, score]): [string, number] => [word, word === 'B' ? 0.6 : score]);
    expect(read([...unsure, ['CLASS', 0.78], ['B', 0.78]]).needs_review).toBe(true);
  });

  /** An asset cell as read at three scales: each reading's words with the engine's scores. */
  const readAtScales = (...readings: Array<Array<[string, number]>>) => {
    const texts = readings.map((words) => ({
      text: words.map(([text]) => text).join(' '),
      words: words.map(([text, confidence]) => ({ text, confidence })),
    }));
    const counts = texts.map((reading) => texts.filter((other) => other.text === reading.text).length);
    const chosen = texts[counts.indexOf(Math.max(...counts))] ?? { text: '', words: [] };
    return {
      ...chosen,
      confidence: Math.min(...chosen.words.map((word) => word.confidence)),
      inked: true,
      agreement: Math.max(...counts) / texts.length,
      readings: texts,
    };
  };
  const judgedCell = (asset: ReturnType<typeof readAtScales>) =>
    scannedRow(houseRow(asset.text, { asset }), { ...context, lexicon: withIssuers, usualSuffix: 'CMN' });

  it('takes the name most readings give once each is judged, from the surest of them without a doubt', () => {
    // 8220750's "VICI PROPERTIES INC. CMN" read three ways, no two alike: two of them are the
    // issuer's name once judged.
    const vici = judgedCell(
      readAtScales(
        [
          ['VICI', 0.16],
          ['PROPERTIES', 0.94],
          ['INC.', 0.93],
          ['CMN', 0.57],
        ],
        [
          ['VIC)', 0.45],
          ['PROPERTIES', 0.96],
          ['INC.', 0.93],
          ['CMIN', 0.66],
        ],
        [
          ['VICI', 0.44],
          ['PROPERTIES', 0.96],
          ['INC.', 0.93],
          ['CVIN', 0.25],
        ],
      ),
    );
    expect(vici).toMatchObject({ asset_description: 'VICI PROPERTIES INC. CMN', needs_review: false });
    // One clean reading against two that judge otherwise is no majority: the clean one lost the
    // last word the others read poorly.
    const onsemi = judgedCell(
      readAtScales(
        [
          ['ON', 0.96],
          ['SEMICONDUCTOR', 0.96],
          ['CORPORATION', 0.96],
          ['ew', 0.48],
        ],
        [
          ['ON', 0.96],
          ['SEMICONDUCTOR', 0.96],
          ['CORPORATION', 0.95],
        ],
        [
          ['ON', 0.96],
          ['SEMICONDUCTOR', 0.93],
          ['CORPORATION', 0.96],
          ['MN', 0.13],
        ],
      ),
    );
    expect(onsemi.needs_review).toBe(true);
  });

  it('lets the black-and-white readings settle a split of the grey ones, never overturn their majority', async () => {
    // The issuer's name and a stored description of its preferred shares, as ingest's lexicon has them.
    const lexicon = await assetLexicon(['AT&T INC.'], ['AT&T INC. 5.000% PERPETUAL PREFERRED SERIES A']);
    const judged = (asset: ReturnType<typeof readAtScales>) =>
      scannedRow(houseRow(asset.text, { asset }), { ...context, lexicon, usualSuffix: 'CMN' });
    // 8220750 page 30: both black-and-white versions read "PFD" as "PFO" where two of the three
    // grey scales read it right (words and scores as read; the five readings in house-cells order).
    const word = (text: string, confidence: number): [string, number] => [text, confidence];
    const atnt = (pfd: string, usd: string, scores: number[]) =>
      [
        word('AT&T', 0.95),
        word('INC.', 0.95),
        word(pfd, 0.9),
        word(usd, 0.88),
        word('SERIES', 0.96),
        word('A', 0.96),
      ].map(([text], index): [string, number] => [text, scores[index] ?? 0.9]);
    const readings = [
      atnt('PFD', 'USD1.2500(5.00%}', [0.81, 0.96, 0.92, 0.52, 0.96, 0.96]),
      atnt('PFD', 'USD1.2500(5.00%)', [0.95, 0.94, 0.92, 0.84, 0.96, 0.96]),
      atnt('PFD', 'USD1.2500(5.00%)', [0.93, 0.95, 0.87, 0.88, 0.96, 0.96]),
      atnt('PFO', 'USD1.2500(5.00%)', [0.95, 0.93, 0.74, 0.88, 0.96, 0.96]),
      atnt('PFO', 'USD1.2500{5.00%)', [0.91, 0.96, 0.71, 0.64, 0.96, 0.96]),
    ];
    expect(judged(readAtScales(...readings))).toMatchObject({
      asset_description: 'AT&T INC. PFD USD1.2500(5.00%) SERIES A',
      needs_review: false,
    });
    // Grey readings split three ways: black-and-white ones agreeing with one of them make its
    // majority (three of five).
    const split = [readings[1], readings[3], readings[0], readings[2], readings[1]];
    expect(judged(readAtScales(...(split as Array<Array<[string, number]>>)))).toMatchObject({
      asset_description: 'AT&T INC. PFD USD1.2500(5.00%) SERIES A',
      needs_review: false,
    });
  });

  it('takes the period after a legal form that one reading saw where the others read a comma', () => {
    const paypal = (period: boolean) =>
      judgedCell(
        readAtScales(
          [
            ['PAYPAL', 0.95],
            ['HOLDINGS,', 0.94],
            [period ? 'INC.' : 'INC,', 0.92],
            ['CMN', 0.9],
          ],
          [
            ['PAYPAL', 0.95],
            ['HOLDINGS,', 0.95],
            ['INC,', 0.62],
            ['CMN', 0.91],
          ],
          [
            ['PAYPAL', 0.96],
            ['HOLDINGS,', 0.94],
            ['INC,', 0.55],
            ['CMN', 0.9],
          ],
        ),
      );
    expect(paypal(true)).toMatchObject({
      asset_description: 'PAYPAL HOLDINGS, INC. CMN',
      needs_review: false,
    });
    // Read with a comma every time, the comma stays doubted.
    expect(paypal(false)).toMatchObject({
      asset_description: 'PAYPAL HOLDINGS, INC, CMN',
      needs_review: true,
    });
  });

  it('passes over a brace read before a word with no bracket after it, not one that closes', () => {
    // 8220750 page 26 as read at its five scales and versions: a speck before the filer's cut
    // INCORPORA read as a brace by two of them.
    const microchip = (cut: string, scores: number[]): Array<[string, number]> =>
      [
        ['MICROCHIP', 0.95],
        ['TECHNOLOGY', 0.92],
        [cut, 0.5],
        ['CMN', 0.91],
      ].map(([text], index): [string, number] => [String(text), scores[index] ?? 0.9]);
    const speck = judgedCell(
      readAtScales(
        microchip('{INCORPORA', [0.95, 0.93, 0.41, 0.91]),
        microchip('INCORPORA', [0.95, 0.92, 0.77, 0.91]),
        microchip('{NCORPORA', [0.89, 0.92, 0.09, 0.91]),
        microchip('{INCORPORA', [0.88, 0.78, 0.22, 0.91]),
        microchip('INCORPORA', [0.94, 0.93, 0.48, 0.91]),
      ),
    );
    expect(speck).toMatchObject({
      asset_description: 'MICROCHIP TECHNOLOGY INCORPORA CMN',
      needs_review: false,
    });
    // A brace with a bracket after it is a parenthesis misread: the readings still differ there.
    const smith = (del: string): Array<[string, number]> => [
      ['SMITH', 0.96],
      ['CORP', 0.96],
      [del, 0.8],
      ['CMN', 0.9],
    ];
    const misread = judgedCell(readAtScales(smith('(DEL)'), smith('{DEL}'), smith('{DEL)')));
    expect(misread.needs_review).toBe(true);
  });

  it("doubts a letter's stroke read as a mark, however alike and sure the readings", () => {
    // 8220834 page 2 turned 1.6 degrees: the "I" of INC read as an opening bracket by every
    // reading, at 0.94; taken as punctuation, the name served lost its letter.
    const woodward: Array<[string, number]> = [
      ['WOODWARD', 0.96],
      ['(NC', 0.94],
    ];
    const bracket = judgedCell(readAtScales(woodward, woodward, woodward));
    expect(bracket.needs_review).toBe(true);
    expect(bracket.reasons.join(' ')).toMatch(/"\(NC" \(a letter read as a mark\?\)/);
    const bar: Array<[string, number]> = [
      ['CORNING', 0.96],
      ['|NCORPORATED', 0.94],
    ];
    expect(judgedCell(readAtScales(bar, bar, bar)).needs_review).toBe(true);
    // A bracket that closes is punctuation, as the filer typed it.
    const closed: Array<[string, number]> = [
      ['MICROCHIP', 0.95],
      ['TECHNOLOGY', 0.93],
      ['(MCHP)', 0.93],
      ['CMN', 0.91],
    ];
    expect(judgedCell(readAtScales(closed, closed, closed)).reasons.join(' ')).not.toMatch(/a mark/);
  });

  it('doubts a whole name read as one long word, however alike and sure the readings', () => {
    // 8220834 page 3 blurred: "CACI INTL INC CL A" read with every space lost, at 0.8, by every
    // reading; a word in no list, taken for a name of its own, it was served.
    const runTogether: Array<[string, number]> = [['CACIINTLINCCLA', 0.8]];
    const row = judgedCell(readAtScales(runTogether, runTogether, runTogether));
    expect(row.needs_review).toBe(true);
    expect(row.reasons.join(' ')).toMatch(/"CACIINTLINCCLA" \(CACI INTL INC CL A\?\)/);
  });

  it('leaves the type empty and flags the row when two types are marked', () => {
    const types: MarkReading = { marked: [0, 1], shares: [0.06, 0.05, 0.001], clarity: 1 };
    const row = scannedRow(houseRow('METLIFE, INC. CMN', { types }), { ...context, lexicon: withIssuers });
    expect(row).toMatchObject({ trade_type: null, needs_review: true });
    expect(row.confidence.trade_type).toBe(0);
  });
});

describe('scannedRow: a date cell read again from differently prepared images', () => {
  // The engine is unsure of the digits (0.6): only the cross reads can make the date servable.
  const unsure = (crossReads: string[], agreement = 1) => ({
    ...cell('01/17/25', 0.6),
    agreement,
    crossReads,
  });
  const judged = (date: ReturnType<typeof unsure>) =>
    scannedRow(houseRow('INTEL CORP CMN', { date }), { ...context, lexicon: undefined });

  it('serves a date every preparation reads alike, however unsure the engine was', () => {
    const row = judged(unsure(['01/17/25', '01/17/25']));
    expect(row.transaction_date).toBe('2025-01-17');
    expect(row.confidence.transaction_date).toBeGreaterThanOrEqual(0.9);
    expect(row.needs_review).toBe(false);
  });

  it('flags a date a cross read reads otherwise, or not at all, however sure the engine was', () => {
    for (const crossReads of [
      ['01/17/25', '01/12/25'],
      // Lost more than a year digit (a lost year digit alone is passed over: below).
      ['01/1', '01/17/25'],
    ]) {
      const row = judged({ ...unsure(crossReads), confidence: 0.96 });
      expect(row.needs_review).toBe(true);
      expect(row.confidence.transaction_date).toBeLessThanOrEqual(0.6);
    }
  });

  it('does not count a cross read that needed repairs, nor outvote a split among the first readings', () => {
    expect(judged(unsure(['O1/17/25', '01/17/25'])).needs_review).toBe(true);
    expect(judged(unsure(['01/17/25', '01/17/25'], 2 / 3)).needs_review).toBe(true);
  });

  it('passes over a cross read that lost a year digit or read a year the filing rules out', () => {
    // Date cells of 8220750 (filed 2025-02-06) whose grey reads were unanimous.
    const read = (text: string, crossReads: string[]) =>
      scannedRow(
        houseRow('METLIFE, INC. CMN', { date: { ...cell(text, 0.74), agreement: 1, crossReads } }),
        context,
      );
    expect(read('01/22/25', ['01/22/28', '01/22/25'])).toMatchObject({
      transaction_date: '2025-01-22',
      needs_review: false,
    });
    expect(read('01/02/25', ['01/02/2', '01/02/25']).needs_review).toBe(false);
    // Another day, a possible year, or no cross read that agrees: the reads still disagree.
    expect(read('01/22/25', ['01/27/25', '01/22/25']).needs_review).toBe(true);
    expect(read('01/22/25', ['01/22/24', '01/22/25']).needs_review).toBe(true);
    expect(read('01/22/25', ['01/22/28', '01/22/2']).needs_review).toBe(true);
    expect(read('01/22/25', ['01/2', '01/22/25']).needs_review).toBe(true);
  });

  it('does not hear a cross read that is no date and no cut-off piece of the first reading', () => {
    // Date cells of 8220834's dark pages (filed 2025-04-17) as read: the engine scored every
    // grey reading 0, one black-and-white preparation gave the same date, the other failed on it.
    const read = (text: string, crossReads: string[], agreement = 1) =>
      scannedRow(
        houseRow('MICROSOFT CORP', {
          date: { ...cell(text, 0), agreement, crossReads },
          notification: { ...cell('4/5/2025', 0.96), agreement: 1, crossReads: ['4/5/2025', '4/5/2025'] },
        }),
        { ...context, filedDate: '2025-04-17' },
      );
    for (const crossReads of [
      ['318/202', '3/18/2025'],
      ['3/18/2025', '3/18/825'],
    ]) {
      const row = read('3/18/2025', crossReads);
      expect(row).toMatchObject({ transaction_date: '2025-03-18', needs_review: false });
      expect(row.confidence.transaction_date).toBeLessThan(0.9);
    }
    // Still heard: another date, a reading cut short, and a split among the grey readings.
    expect(read('3/18/2025', ['3/16/2025', '3718/2025']).needs_review).toBe(true);
    expect(read('3/18/2025', ['3/1', '3/18/2025']).needs_review).toBe(true);
    expect(read('3/18/2025', ['3/18/2025', '3/18/825'], 2 / 3).needs_review).toBe(true);
    // No cross read at all that agrees.
    expect(read('3/18/2025', ['318/202', '3/18/825']).needs_review).toBe(true);
    // Heard against it: as long as the date, its separators read as digits, and another digit
    // where the day's was read (8220834 read at 80% of its resolution: the 14 that was typed).
    expect(read('3/18/2025', ['3/18/2025', '311402008']).needs_review).toBe(true);
    // A digit read otherwise only in the year says nothing of the month and day: not heard.
    expect(read('3/18/2025', ['3/18/2025', '311802008']).needs_review).toBe(false);
  });

  it('hears a reading that differs from the date only by a lost or misread separator as agreeing', () => {
    // 8220834 (filed 2025-04-17), LENNAR CORP: the engine scored every grey reading 0, one
    // scale and both black-and-white preparations lost or closed a separator.
    const lennar = scannedRow(
      houseRow('LENNAR CORP', {
        date: {
          ...cell('3/13/2025', 0),
          agreement: 2 / 3,
          readings: ['3/1372025', '3/13/2025', '3/13/2025'].map((text) => ({ text, words: [] })),
          crossReads: ['3/132025', '3/1372025'],
        },
        notification: { ...cell('4/5/2025', 0.96), agreement: 1, crossReads: ['4/5/2025', '4/5/2025'] },
      }),
      { ...context, filedDate: '2025-04-17' },
    );
    expect(lennar).toMatchObject({ transaction_date: '2025-03-13', needs_review: false });
  });
});

describe("scannedRow: a bond's coupon months after its maturity date", () => {
  // 8220750's municipal bonds as read: the thin J of "JD" read as 1 or i, or scored low.
  const bond = (last: string, confidence: number) => {
    const asset = cell(`OHIO ST UNIV GEN RCPTS REV 5.0000% 12/01/25 ${last}`, 0.92);
    const words = (asset.words ?? []).map((word, index, all) =>
      index === all.length - 1 ? { ...word, confidence } : word,
    );
    return scannedRow(houseRow(asset.text, { asset: { ...asset, words } }), context);
  };

  it('takes the pair of months the maturity month implies, the thin J or the round D misread or not', () => {
    for (const last of ['JD', '1D', 'iD', 'JO', 'jo'])
      expect(bond(last, 0.51)).toMatchObject({
        asset_description: 'OHIO ST UNIV GEN RCPTS REV 5.0000% 12/01/25 JD',
        needs_review: false,
      });
  });

  it('leaves another pair, or one after no date, as the engine scored it', () => {
    expect(bond('MN', 0.51).needs_review).toBe(true);
    // An O is no lookalike of a J: "OD" is not taken for JD.
    expect(bond('OD', 0.51).needs_review).toBe(true);
    const undated = cell('OHIO ST UNIV GEN RCPTS REV JD', 0.92);
    const words = (undated.words ?? []).map((word) =>
      word.text === 'JD' ? { ...word, confidence: 0.51 } : word,
    );
    expect(scannedRow(houseRow(undated.text, { asset: { ...undated, words } }), context).needs_review).toBe(
      true,
    );
  });
});

describe('scannedRow: a date cell that prints like the dates other rows read surely', () => {
  // Constructed readings after 8220750 page 16: a typed 01/17/25 read 01/12/25 at two scales of
  // three and by both black-and-white reads, while rows whose cells print alike read 01/17/25.
  const misread = { ...cell('01/12/25', 0.9), agreement: 2 / 3, crossReads: ['01/12/25', '01/12/25'] };
  const print = { value: '2025-01-17', confidence: 0.9 };

  it('takes the date the print says, served', () => {
    const row = scannedRow(houseRow('AMERICAN INTL GROUP, INC. CMN', { date: misread }), context);
    expect(row.confidence.transaction_date).toBeLessThan(0.85);
    const byPrint = scannedRow(houseRow('AMERICAN INTL GROUP, INC. CMN', { date: misread }), {
      ...context,
      transactionPrint: print,
    });
    expect(byPrint).toMatchObject({ transaction_date: '2025-01-17', needs_review: false });
  });

  it('replaces a month read wrong, and the dates are then checked against each other as read', () => {
    // "03/17/25" after a notification of 02/04/25 doubted both dates; the print's date does not.
    const month = { ...cell('03/17/25', 0.9), agreement: 1, crossReads: ['03/17/25', '03/17/25'] };
    const row = scannedRow(houseRow('ESTEE LAUDER COS INC CL-A CMN CLASS A', { date: month }), {
      ...context,
      transactionPrint: print,
    });
    expect(row).toMatchObject({ transaction_date: '2025-01-17', needs_review: false });
    expect(row.confidence.notification_date).toBeGreaterThanOrEqual(0.85);
    // A print's date after the notification is still doubted.
    const late = scannedRow(houseRow('ESTEE LAUDER COS INC CL-A CMN CLASS A', { date: month }), {
      ...context,
      transactionPrint: { value: '2025-02-05', confidence: 0.9 },
    });
    expect(late.needs_review).toBe(true);
  });
});

describe("scannedRow: a date cell that prints like another row's, read as another date", () => {
  // Constructed after a copy of 8220834 page 2 with every stroke a pixel thinner, where a typed
  // 3/19/2025 read 3/18/2025 at every scale and by both black-and-white reads while a row printed
  // alike on the page read 3/19/2025; the dates here are moved into this context's filing.
  const thinned = { ...cell('01/18/25', 0.38), agreement: 1, crossReads: ['01/18/25', '01/18/25'] };

  it('doubts a date every read agreed on, saying which date the alike print was read as', () => {
    const alone = scannedRow(houseRow('AON PLC', { date: thinned }), context);
    expect(alone).toMatchObject({ transaction_date: '2025-01-18', needs_review: false });
    const row = scannedRow(houseRow('AON PLC', { date: thinned }), {
      ...context,
      transactionPrintAgainst: '2025-01-19',
    });
    expect(row).toMatchObject({ transaction_date: '2025-01-18', needs_review: true });
    expect(row.reasons).toContain(
      "transaction_date: transaction date prints like another row's, read as 2025-01-19",
    );
  });
});

describe('scannedRow: a month name read one letter off', () => {
  const read = (text: string, filedDate: string) =>
    scannedRow(
      houseRow('Hershey Company Com', {
        date: { ...cell(text, 0.77), agreement: 1, crossReads: [text, text] },
        notification: { ...cell('31-Jan-25', 0.9), agreement: 1, crossReads: ['31-Jan-25', '31-Jan-25'] },
      }),
      { ...context, filedDate },
    );

  it('takes the one month that near, flagged for a person to confirm', () => {
    const row = read('15-lan-25', '2025-02-06');
    expect(row).toMatchObject({ transaction_date: '2025-01-15', needs_review: true });
    expect(row.confidence.transaction_date).toBeLessThanOrEqual(0.6);
  });

  it('leaves it no date when the filing rules the repair out or two months are that near', () => {
    expect(read('15-lan-25', '2024-12-01').transaction_date).toBeNull();
    expect(read('15-Mat-25', '2025-06-01').transaction_date).toBeNull();
  });
});

describe('separatorsOnly', () => {
  it('reads a date but for its separators only when that date alone explains the reading best', () => {
    expect(separatorsOnly('3/1372025', '3/13/2025', '2025-04-17')).toBe('2025-03-13');
    expect(separatorsOnly('3718/2025', '3/18/2025', '2025-04-17')).toBe('2025-03-18');
    expect(separatorsOnly('0117/25', '01/17/25', '2025-02-06')).toBe('2025-01-17');
    // "3/132025" also fits 3/1/2025 with a separator read as 3, but less simply.
    expect(separatorsOnly('3/132025', '3/13/2025', '2025-04-17')).toBe('2025-03-13');
    // "3/172025" reads 3/17/2025 more simply than 3/1/2025 with a separator read as 7.
    expect(separatorsOnly('3/172025', '3/1/2025', '2025-04-17')).toBeNull();
    // "1112025" is 1/11/2025 or 11/1/2025 alike when the filing allows both (in April it
    // allows only the first); a lost digit is no separator; no filing, no check.
    expect(separatorsOnly('1112025', '1/11/2025', '2025-12-05')).toBeNull();
    expect(separatorsOnly('1112025', '1/11/2025', '2025-04-17')).toBe('2025-01-11');
    expect(separatorsOnly('3/18/825', '3/18/2025', '2025-04-17')).toBeNull();
    expect(separatorsOnly('3/1372025', '3/13/2025', null)).toBeNull();
    // A date the filing rules out is not confirmed by any reading.
    expect(separatorsOnly('5/1372025', '5/13/2025', '2025-04-17')).toBeNull();
  });
});

describe('scannedRow: a date cell read again, its readings heard', () => {
  it('does not hear a grey reading that failed on the cell or read only a year the filing rules out', () => {
    // Date cells of 8220834's dark pages (filed 2025-04-17) as read at three scales: the engine
    // scored the grey readings near 0. `text` is the reading the vote chose.
    const read = (text: string, readings: string[], crossReads: string[]) =>
      scannedRow(
        houseRow('WOODWARD INC', {
          date: {
            ...cell(text, 0.01),
            agreement: readings.filter((reading) => reading === text).length / readings.length,
            readings: readings.map((reading) => ({
              text: reading,
              words: [{ text: reading, confidence: 0.01 }],
            })),
            crossReads,
          },
          notification: { ...cell('4/5/2025', 0.96), agreement: 1, crossReads: ['4/5/2025', '4/5/2025'] },
        }),
        { ...context, filedDate: '2025-04-17' },
      );
    expect(
      read('3/14/2025', ['351472025', '3/14/2025', '3/14/2025'], ['3/14/2025', '314/205']),
    ).toMatchObject({
      transaction_date: '2025-03-14',
      needs_review: false,
    });
    expect(
      read('3/21/2025', ['3/21/2025', '3/21/2028', '3/21/2025'], ['3/21/2025', '3/21/2025']),
    ).toMatchObject({
      transaction_date: '2025-03-21',
      needs_review: false,
    });
    // Another day, or the same day in a year the filing allows, is heard against the date; so is
    // a cross read of another date, whatever the grey readings say.
    const heard = [
      read('3/14/2025', ['3/14/2025', '3/18/2025', '3/14/2025'], ['3/14/2025', '3/14/2025']),
      read('3/14/2025', ['3/14/2025', '3/14/2024', '3/14/2025'], ['3/14/2025', '3/14/2025']),
      read('3/8/2025', ['3//025', '3/8/2028', '3/8/2025'], ['3/5/2025', '/8028']),
    ];
    for (const row of heard) expect(row.needs_review).toBe(true);
  });

  it("takes the cross reads' date when the first readings gave none, or one the filing rules out", () => {
    // Cells of 8220750 (filed 2025-02-06) and 8220834 (filed 2025-04-17) as read.
    const read = (text: string, crossReads: string[], filedDate = '2025-02-06') =>
      scannedRow(houseRow('METLIFE, INC. CMN', { date: { ...cell(text, 0.2), agreement: 1, crossReads } }), {
        ...context,
        filedDate,
      });
    const agreed = read('0117/25', ['01/17/25', '01/17/25']);
    expect(agreed).toMatchObject({ transaction_date: '2025-01-17', needs_review: false });
    // A year no date of this filing can have; the two cross reads agree.
    expect(
      scannedRow(
        houseRow('MICROSOFT CORP', {
          date: { ...cell('3/17/2825', 0.91), agreement: 1, crossReads: ['3/17/2025', '3/17/2025'] },
          notification: { ...cell('4/5/2025'), agreement: 1, crossReads: ['4/5/2025', '4/5/2025'] },
        }),
        { ...context, filedDate: '2025-04-17' },
      ),
    ).toMatchObject({ transaction_date: '2025-03-17', needs_review: false });
    // One cross read alone, or cross reads that disagree or need repairs: not served as read.
    expect(read('0117/25', ['01/17/25', '0117/25'])).toMatchObject({
      transaction_date: '2025-01-17',
      needs_review: true,
    });
    expect(read('017/25', ['01/17/25', '01/12/25'])).toMatchObject({
      transaction_date: null,
      needs_review: true,
    });
    expect(read('017/25', ['O1/17/25', '01/17/25']).transaction_date).toBeNull();
  });

  it('settles a year no date of the filing can have by the dates around it, a guess unless the column agrees', () => {
    // 8220750 (filed 2025-02-06): notifications read "02/04/28" among a column of 02/04/25.
    const notified = (text: string, consensus: { value: string; confidence: number } | null) =>
      scannedRow(
        houseRow('NASDAQ INC. CMN', {
          date: { ...cell('01/21/25'), agreement: 1, crossReads: ['01/21/25', '01/21/25'] },
          notification: { ...cell(text, 0.22), agreement: 1, crossReads: ['02/042', '02/04/2'] },
        }),
        { ...context, notificationConsensus: consensus },
      );
    const column = { value: '2025-02-04', confidence: 0.98 };
    expect(notified('02/04/28', column)).toMatchObject({
      notification_date: '2025-02-04',
      needs_review: false,
    });
    const alone = notified('02/04/28', null);
    expect(alone).toMatchObject({ notification_date: '2025-02-04', needs_review: true });
    expect(alone.reasons.join(' ')).toContain('settled');
    // 2024 and 2025 both fit a transaction of January 17 before a notification of 2025-02-04.
    const transaction = scannedRow(
      houseRow('PPG INDUSTRIES, INC. CMN', { date: { ...cell('01/17/28', 0.23), agreement: 1 } }),
      context,
    );
    expect(transaction).toMatchObject({ transaction_date: '2028-01-17', needs_review: true });
    // The year the document's other transaction dates read (8220750: all of 2025) settles it,
    // still a guess to confirm.
    const usual = scannedRow(
      houseRow('PPG INDUSTRIES, INC. CMN', { date: { ...cell('01/17/28', 0.23), agreement: 1 } }),
      { ...context, usualYear: '2025' },
    );
    expect(usual).toMatchObject({ transaction_date: '2025-01-17', needs_review: true });
    expect(usual.reasons.join(' ')).toContain("settled as 2025 by the document's other dates");
    // A possible year with a date the filing rules out: the month or day is wrong, not the year.
    const month = scannedRow(houseRow('ESTEE LAUDER COS INC CMN', { date: cell('03/17/25') }), context);
    expect(month).toMatchObject({ transaction_date: '2025-03-17', needs_review: true });
  });

  it('still flags an agreed date the filing contradicts', () => {
    const date = { ...cell('03/17/25', 0.6), agreement: 1, crossReads: ['03/17/25', '03/17/25'] };
    const row = scannedRow(houseRow('INTEL CORP CMN', { date }), context);
    expect(row.needs_review).toBe(true);
    expect(row.confidence.transaction_date).toBeLessThan(0.5);
  });
});
