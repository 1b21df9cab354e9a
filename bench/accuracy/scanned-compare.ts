// Rows the OCR stage read against our transcription: paired page by page in order, then judged
// field by field. A row is exact when every key field equals the transcription; it is flagged when
// the stage sent it to review; wrong-but-unflagged is the number that must stay at 0.
import {
  CONFIDENCE_FIELDS,
  type ConfidenceField,
  type ScannedRow,
} from '../../src/ingest/ocr/scanned-rows.js';
import { assetKey, assetLetters, type TruthDocument, type TruthRow } from './scanned-truth.js';

export type KeyField =
  | 'transaction_date'
  | 'notification_date'
  | 'owner'
  | 'trade_type'
  | 'amount_range'
  | 'asset_description';

export const COMPARED: readonly KeyField[] = [
  'transaction_date',
  'notification_date',
  'owner',
  'trade_type',
  'amount_range',
  'asset_description',
];

export interface RowVerdict {
  truth: TruthRow | null;
  ours: ScannedRow | null;
  /** Key fields whose value differs from the transcription. */
  wrong: KeyField[];
  /** The asset name differs only in its spaces. */
  spacingOnly: boolean;
}

function fieldValues(row: ScannedRow): Record<KeyField, string | null> {
  return {
    transaction_date: row.transaction_date,
    notification_date: row.notification_date,
    owner: row.owner,
    trade_type: row.trade_type,
    amount_range: row.amount?.range ?? null,
    asset_description: assetKey(row.asset_description),
  };
}

function truthValues(row: TruthRow): Record<KeyField, string | null> {
  return {
    transaction_date: row.transactionDate,
    notification_date: row.notificationDate,
    owner: row.owner,
    trade_type: row.tradeType,
    amount_range: row.amount,
    asset_description: assetKey(row.asset),
  };
}

function similarity(ours: ScannedRow, truth: TruthRow): number {
  const a = fieldValues(ours);
  const b = truthValues(truth);
  let same = 0;
  for (const field of COMPARED) if (a[field] !== null && a[field] === b[field]) same++;
  const name = letterSimilarity(assetLetters(ours.asset_description), assetLetters(truth.asset));
  return (same + 2 * name) / (COMPARED.length + 2);
}

/** 1 - normalized edit distance. */
export function letterSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return 1 - editDistance(a, b) / longest;
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Pairs the rows of one page in order (an alignment that maximizes the summed similarity). */
function alignPage(ours: ScannedRow[], truth: TruthRow[]): Array<[ScannedRow | null, TruthRow | null]> {
  const n = ours.length;
  const m = truth.length;
  const score: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const pair = similarity(ours[i] as ScannedRow, truth[j] as TruthRow);
      const take = pair >= 0.3 ? pair + (score[i + 1]?.[j + 1] ?? 0) : -1;
      const line = score[i] as number[];
      line[j] = Math.max(take, score[i + 1]?.[j] ?? 0, line[j + 1] ?? 0);
    }
  }
  const pairs: Array<[ScannedRow | null, TruthRow | null]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const pair = similarity(ours[i] as ScannedRow, truth[j] as TruthRow);
    if (pair >= 0.3 && Math.abs((score[i]?.[j] ?? 0) - (pair + (score[i + 1]?.[j + 1] ?? 0))) < 1e-9) {
      pairs.push([ours[i] ?? null, truth[j] ?? null]);
      i++;
      j++;
    } else if ((score[i + 1]?.[j] ?? 0) >= (score[i]?.[j + 1] ?? 0)) {
      pairs.push([ours[i] ?? null, null]);
      i++;
    } else {
      pairs.push([null, truth[j] ?? null]);
      j++;
    }
  }
  for (; i < n; i++) pairs.push([ours[i] ?? null, null]);
  for (; j < m; j++) pairs.push([null, truth[j] ?? null]);
  return pairs;
}

export function compareDocument(truth: TruthDocument, ours: readonly ScannedRow[]): RowVerdict[] {
  const pages = [...new Set([...truth.rows.map((row) => row.page), ...ours.map((row) => row.page)])].sort(
    (a, b) => a - b,
  );
  const verdicts: RowVerdict[] = [];
  for (const page of pages) {
    const pairs = alignPage(
      ours.filter((row) => row.page === page),
      truth.rows.filter((row) => row.page === page),
    );
    for (const [our, their] of pairs) {
      if (!our || !their) {
        verdicts.push({ truth: their, ours: our, wrong: [], spacingOnly: false });
        continue;
      }
      const a = fieldValues(our);
      const b = truthValues(their);
      const wrong = COMPARED.filter((field) => a[field] !== b[field]);
      const spacingOnly =
        wrong.includes('asset_description') &&
        assetLetters(our.asset_description) === assetLetters(their.asset);
      verdicts.push({ truth: their, ours: our, wrong, spacingOnly });
    }
  }
  return verdicts;
}

export interface Tally {
  rows: number;
  exact: number;
  exactUnflagged: number;
  flagged: number;
  wrongUnflagged: number;
  missed: number;
  extra: number;
  extraUnflagged: number;
}

export function tally(verdicts: readonly RowVerdict[]): Tally {
  const t: Tally = {
    rows: 0,
    exact: 0,
    exactUnflagged: 0,
    flagged: 0,
    wrongUnflagged: 0,
    missed: 0,
    extra: 0,
    extraUnflagged: 0,
  };
  for (const verdict of verdicts) {
    if (verdict.truth) t.rows++;
    if (verdict.truth && !verdict.ours) {
      t.missed++;
      continue;
    }
    if (!verdict.truth && verdict.ours) {
      t.extra++;
      if (!verdict.ours.needs_review) t.extraUnflagged++;
      continue;
    }
    const ours = verdict.ours as ScannedRow;
    if (ours.needs_review) t.flagged++;
    if (verdict.wrong.length === 0) {
      t.exact++;
      if (!ours.needs_review) t.exactUnflagged++;
    } else if (!ours.needs_review) t.wrongUnflagged++;
  }
  return t;
}

/**
 * Per field: the confidence of every value read, split by right and wrong. The lowest threshold
 * that flags every wrong value is just above the highest confidence of a wrong one.
 */
export function calibration(
  verdicts: readonly RowVerdict[],
): Record<ConfidenceField, { right: number[]; wrong: number[] }> {
  const out = Object.fromEntries(
    CONFIDENCE_FIELDS.map((field) => [field, { right: [] as number[], wrong: [] as number[] }]),
  ) as Record<ConfidenceField, { right: number[]; wrong: number[] }>;
  for (const verdict of verdicts) {
    if (!verdict.truth || !verdict.ours) continue;
    for (const field of COMPARED) {
      const bucket = verdict.wrong.includes(field) ? out[field].wrong : out[field].right;
      bucket.push(verdict.ours.confidence[field]);
    }
    const tickerRight = verdict.ours.ticker === verdict.truth.ticker;
    (tickerRight ? out.ticker.right : out.ticker.wrong).push(verdict.ours.confidence.ticker);
  }
  return out;
}
