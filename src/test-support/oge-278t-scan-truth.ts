// OUR TRANSCRIPTION (not the filer's data file, not OCR output) of the transactions table of the
// scanned OGE 278-T "Donald J. Trump 11.14.2025 278-T.pdf" (congress/raw-oge/open-cabinet-278t in
// the shared data): page 2, rows 1-32, each cell read by eye twice on the page rendered at 300 dpi.
// The scan's type face closes the "e" of "Due" and "purchase" so that it looks like an "o": we
// write what the filer typed ("Due", "purchase"). Row 13 has a smudge between "IN" and "MLTI";
// we read it as a hyphen. The form has no owner column, no notification date and no ticker column.
export const OGE_278T_SCAN_FILE = 'Donald J. Trump 11.14.2025 278-T.pdf';
export const OGE_278T_SCAN_FILED = '2025-11-14';

/**
 * The filer's cells as the scan types them (our reading, as the rows): page 1's "Filer's
 * Information" (the Agency cell is empty) and the stamp under it, page 2's "Filer's Name". The
 * signatures and their dates (11/14/25) are handwritten.
 */
export const OGE_278T_SCAN_FILER = {
  last: 'Trump',
  first: 'Donald',
  middle: 'J',
  position: 'President of the United States of America',
  agency: '',
  received: 'OGE RECEIVED 11/17/2025',
  full: 'Donald J Trump',
} as const;

export interface Oge278tTruthRow {
  row: number;
  asset: string;
  type: 'Buy' | 'Sell' | 'Exchange';
  date: string;
  late: boolean;
  amount: string;
}

const ROWS: ReadonlyArray<readonly [string, string, boolean, string]> = [
  ['AMERICAN MUN PWR OH ELECT UTIL 5% DUE 02/15/34', '2025-10-15', false, '$500,001 - $1,000,000'],
  ['COOK CNTY ILL SCH D 5% DUE 12/01/27', '2025-10-15', false, '$100,001 - $250,000'],
  ['KENDALL KANE & WILL 5% DUE 02/01/35', '2025-10-09', false, '$1,000,001 - $5,000,000'],
  ['NORTH TEX TWY AUTH 5% DUE 01/01/39', '2025-10-07', false, '$500,001 - $1,000,000'],
  ['PAGE CNTY IA JAIL 2024 B B/E 4.00 % Due Jun 1, 2026', '2025-10-15', false, '$50,001 - $100,000'],
  ['SPRINGFIELD MO SPL OBLIG IMPT REV B/E 5.00 % Due Nov 1, 2026', '2025-10-15', false, '$50,001 - $100,000'],
  ['ANDOVER KS 2025 A DB B/E 5.00 % Due Oct 1, 2026', '2025-10-15', false, '$100,001 - $250,000'],
  [
    'ALABAMA CMNTY CLLG SYS BRD TRUSTEES REV REID ST CMNTY CLLG 2025 BAM B/E 5.00 % Due Sep 1, 2026',
    '2025-10-15',
    false,
    '$100,001 - $250,000',
  ],
  [
    'WEST VIRGINIA COMMR HWY SPL OBLIG SURFACE TRANSN IMPT NT A REV B/E 5.00 % Due Sep 1, 2026',
    '2025-10-15',
    false,
    '$100,001 - $250,000',
  ],
  ['GMG CMNTY SCH DIST IA AGI B/E B/Q 5.00 % Due Jun 1, 2026', '2025-10-15', false, '$100,001 - $250,000'],
  [
    'ST CHARLES CNTY MO PUB WTR SPLY DIST 2 RFDG CTF PARTN SER C REV B/E PTC 5.00 % Due Dec 1, 2026',
    '2025-10-10',
    false,
    '$250,001 - $500,000',
  ],
  [
    'BLACK BELT ENERGY GAS DIST AL GAS PREPAY REV PJ 5 SER A 1 B/E 4.00 % Due Oct 1, 2049',
    '2025-10-03',
    true,
    '$100,001 - $250,000',
  ],
  [
    'CLAY IN-MLTI SCH CMNTY BLDG CORP 1ST MTG REV B/E CR ENH 5.00 % Due Jul 15, 2026',
    '2025-10-03',
    true,
    '$250,001 - $500,000',
  ],
  [
    'SCOTT CNTY IN SCH DIST 2 MIDDLE SCH BLDG RFDG & IMPT 1ST MTG REV B/E 4.00 % Due Jan 15, 2026',
    '2025-10-03',
    true,
    '$100,001 - $250,000',
  ],
  [
    'MICHIGAN ST HSG DEV AUTH RENT HSG REV A B/E 3.40 % Due Oct 1, 2026',
    '2025-10-03',
    true,
    '$100,001 - $250,000',
  ],
  [
    'GWINNETT CNTY GA DEV AUTH REV RFDG GWINNETT CLLG STDNT CTR PJ B B/E 5.00 % Due Jul 1, 2026',
    '2025-10-03',
    true,
    '$100,001 - $250,000',
  ],
  ['TUPELO MS PUB SCH DIST B/E PTC 4.00 % Due Sep 1, 2026', '2025-10-03', true, '$250,001 - $500,000'],
  [
    'MIAMI DADE CNTY FL HSG FIN AUTH MLTIFAM REV FAIRFIELD RUNNING B/E 3.55 % Due Jan 1, 2027',
    '2025-10-03',
    true,
    '$50,001 - $100,000',
  ],
  [
    'KENTUCKY INC KY PUB ENERGY AUTH GAS SPLY REV SER A B/E 4.00 % Due Dec 1, 2050',
    '2025-10-02',
    true,
    '$100,001 - $250,000',
  ],
  [
    'BLACK BELT ENERGY GAS DIST AL GAS REV PJ 6 SER B B/E 4.00 % Due Oct 1, 2052',
    '2025-10-02',
    true,
    '$15,001 - $50,000',
  ],
  [
    'MAIN STREET NAT GAS INC GA GAS SPLY REV C B/E 4.00 % Due Mar 1, 2050',
    '2025-10-02',
    true,
    '$100,001 - $250,000',
  ],
  [
    'BLACK BELT ENERGY GAS DIST AL GAS PREPAY REV PJ 5 SER A 1 B/E 4.00 % Due Oct 1, 2049',
    '2025-10-02',
    true,
    '$15,001 - $50,000',
  ],
  ['JENISON MI PUB SCHS RFDG B/E 5.00 % Due May 1, 2026', '2025-10-02', true, '$50,001 - $100,000'],
  [
    'MISSOURI ST PUB UTILS COMMN REV INTERIM CONSTR NT B/E 4.00 % Due May 1, 2026',
    '2025-10-02',
    true,
    '$250,001 - $500,000',
  ],
  [
    'MONROE CNTY GA DEV AUTH POLLTN CTL REV PWR CO PLT SCHERER 1ST ADJ B/E 3.875 % Due Dec 1, 2041',
    '2025-10-02',
    true,
    '$50,001 - $100,000',
  ],
  [
    'ALACHUA CNTY FL HLTH FACS AUTH REV RFDG SHANDS TEACHING B2 B/E 5.00 % Due Dec 1, 2037',
    '2025-10-02',
    true,
    '$100,001 - $250,000',
  ],
  [
    'IOWA FIN AUTH REV ST REVLVG FD 2022A GREEN BD B/E 5.00 % Due Aug 1, 2026',
    '2025-10-02',
    true,
    '$250,001 - $500,000',
  ],
  [
    'CLEVELAND OH CTF PARTN RFDG CLEVELAND STAD PJ REV B/E 5.00 % Due Nov 15, 2026',
    '2025-10-02',
    true,
    '$500,001 - $1,000,000',
  ],
  [
    'KNOXVILLE CNTY TN HLTH EDL&HSG FAC BRD MLTIFAM HSG REV COLLTZD PJ B/E 3.95 % Due Dec 1, 2027',
    '2025-10-02',
    true,
    '$50,001 - $100,000',
  ],
  [
    'WILLISTON BASIN SCH DIST 007 ND BLDG 2024 B/E CR ENH 5.00 % Due Aug 1, 2026',
    '2025-10-02',
    true,
    '$250,001 - $500,000',
  ],
  ['WAUPUN WI SCH DIST RFDG B/E PTC 4.00 % Due Apr 1, 2026', '2025-10-02', true, '$250,001 - $500,000'],
  [
    'WILLISTON ND PKS & REC DIST SALES TAX REV SR RFDG 2025 A B/E CR ENH 5.00 % Due Dec 1, 2026',
    '2025-10-02',
    true,
    '$1,000,001 - $5,000,000',
  ],
];

/** Every row is a purchase on this filing. */
export const OGE_278T_SCAN_TRUTH: readonly Oge278tTruthRow[] = ROWS.map(
  ([asset, date, late, amount], index) => ({
    row: index + 1,
    asset,
    type: 'Buy',
    date,
    late,
    amount,
  }),
);

export interface Oge278tTally {
  truth: number;
  /** Every key field right and not flagged. */
  exactUnflagged: number;
  /** Every key field right, flagged or not. */
  exact: number;
  flagged: number;
  /** A key field wrong and the row not flagged: must be 0. */
  wrongUnflagged: number;
  missed: number;
  /** Rows read that the table does not have (a row split in two, a stray band). */
  extra: number;
  /** Of those, not flagged: served as trades that were never made, so wrong too. */
  extraUnflagged: number;
}

/**
 * The rows read against the transcription, paired by row number: exact when the date, type,
 * bracket, late answer and asset name (spaces aside) all equal it.
 */
export function tallyOge278t(
  read: ReadonlyArray<{
    row: number;
    asset_description: string;
    trade_type: string | null;
    transaction_date: string | null;
    amount: { range: string } | null;
    late_notification?: boolean | null;
    needs_review: boolean;
  }>,
): Oge278tTally {
  const tally: Oge278tTally = {
    truth: OGE_278T_SCAN_TRUTH.length,
    exactUnflagged: 0,
    exact: 0,
    flagged: 0,
    wrongUnflagged: 0,
    missed: 0,
    extra: 0,
    extraUnflagged: 0,
  };
  const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
  for (const truth of OGE_278T_SCAN_TRUTH) {
    const row = read.find((candidate) => candidate.row === truth.row);
    if (!row) {
      tally.missed++;
      continue;
    }
    const exact =
      squash(row.asset_description) === squash(truth.asset) &&
      row.trade_type === truth.type &&
      row.transaction_date === truth.date &&
      row.amount?.range === truth.amount &&
      row.late_notification === truth.late;
    if (exact) tally.exact++;
    if (row.needs_review) tally.flagged++;
    else if (exact) tally.exactUnflagged++;
    else tally.wrongUnflagged++;
  }
  for (const row of read) {
    if (OGE_278T_SCAN_TRUTH.some((truth) => truth.row === row.row)) continue;
    tally.extra++;
    if (!row.needs_review) tally.extraUnflagged++;
  }
  return tally;
}
