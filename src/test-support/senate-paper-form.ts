// CONSTRUCTED page images of a Senate paper Periodic Transaction Report, drawn here with
// @napi-rs/canvas. No real Senate paper filing's page images are in the recorded data: these
// follow the form's documented columns (Transaction Date, Owner, Ticker, Asset Name, the
// transaction types Purchase / Sale (Full) / Sale (Partial) / Exchange, the amount brackets A-K as
// checkbox columns), typed, with an "X" in the boxes ticked. They prove the path from eFD page
// images to stored rows, not that a real scan of the form reads as well.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { AMOUNT_COLUMNS, AMOUNT_LETTERS } from '../domain/amount.js';

export interface ConstructedSenateRow {
  date: string;
  owner: string;
  ticker: string;
  asset: string;
  /** Index of the type box ticked: 0 Purchase, 1 Sale (Full), 2 Sale (Partial), 3 Exchange. */
  type: number;
  /** Indexes of the amount boxes ticked, A = 0 ... K = 10 (two when a filer ticked two). */
  amounts: number[];
}

const WIDTH = 2200;
const HEIGHT = 1700;
const LEFT = 100;
const TOP = 330;
const HEADER = 150;
const GROUP = 50;
const ROW = 64;
const ROWS = 12;
const TEXT_COLUMNS: Array<[string, number]> = [
  ['#', 60],
  ['Transaction Date', 180],
  ['Owner', 140],
  ['Ticker', 120],
  ['Asset Name', 450],
];
const TYPES = ['Purchase', 'Sale (Full)', 'Sale (Partial)', 'Exchange'];
const TYPE_WIDTH = 70;
const AMOUNT_WIDTH = 64;

/** One page of the CONSTRUCTED form as PNG bytes, with up to 12 rows. */
export function senatePaperPage(filer: string, rows: readonly ConstructedSenateRow[], page = 1): Uint8Array {
  if (rows.length > ROWS) throw new Error(`a page holds ${ROWS} rows`);
  const canvas = createCanvas(WIDTH, HEIGHT);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, WIDTH, HEIGHT);
  context.fillStyle = '#000000';
  context.strokeStyle = '#000000';
  context.font = 'bold 40px "Liberation Sans"';
  context.fillText('United States Senate', LEFT, 110);
  context.fillText('PERIODIC TRANSACTION REPORT', LEFT, 170);
  context.font = '28px "Liberation Sans"';
  context.fillText(`Name: ${filer}`, LEFT, 240);
  context.fillText(`Page ${page}`, WIDTH - 260, 240);

  const edges = [LEFT];
  for (const [, width] of TEXT_COLUMNS) edges.push((edges[edges.length - 1] ?? 0) + width);
  const typesLeft = edges[edges.length - 1] ?? 0;
  for (let i = 0; i < TYPES.length; i++) edges.push(typesLeft + (i + 1) * TYPE_WIDTH);
  const amountsLeft = edges[edges.length - 1] ?? 0;
  for (let i = 0; i < AMOUNT_COLUMNS.length; i++) edges.push(amountsLeft + (i + 1) * AMOUNT_WIDTH);
  const right = edges[edges.length - 1] ?? 0;
  const bottom = TOP + HEADER + ROWS * ROW;

  context.lineWidth = 3;
  const line = (x0: number, y0: number, x1: number, y1: number) => {
    context.beginPath();
    context.moveTo(x0, y0);
    context.lineTo(x1, y1);
    context.stroke();
  };
  // Rules: the table's rows across it; the group titles' foot across the mark columns only.
  line(LEFT, TOP, right, TOP);
  line(typesLeft, TOP + GROUP, right, TOP + GROUP);
  for (let r = 0; r <= ROWS; r++) line(LEFT, TOP + HEADER + r * ROW, right, TOP + HEADER + r * ROW);
  for (const x of edges) {
    const inGroup = (x > typesLeft && x < amountsLeft) || (x > amountsLeft && x < right);
    line(x, inGroup ? TOP + GROUP : TOP, x, bottom);
  }

  context.font = 'bold 20px "Liberation Sans"';
  TEXT_COLUMNS.forEach(([title], index) => {
    context.fillText(title, (edges[index] ?? 0) + 8, TOP + HEADER - 20);
  });
  context.fillText('Transaction Type', typesLeft + 30, TOP + 35);
  context.fillText('Amount', amountsLeft + 300, TOP + 35);
  context.font = '15px "Liberation Sans"';
  TYPES.forEach((title, index) => {
    const x = typesLeft + index * TYPE_WIDTH + 5;
    const [first, second] = title.split(' ');
    context.fillText(first ?? '', x, TOP + GROUP + 40);
    if (second) context.fillText(second, x, TOP + GROUP + 62);
  });
  context.font = 'bold 24px "Liberation Sans"';
  AMOUNT_LETTERS.split('').forEach((letter, index) => {
    context.fillText(letter, amountsLeft + index * AMOUNT_WIDTH + 24, TOP + HEADER - 20);
  });

  context.font = '26px "Liberation Sans"';
  rows.forEach((row, index) => {
    const y = TOP + HEADER + index * ROW;
    const baseline = y + ROW - 20;
    const cells = [String(index + 1), row.date, row.owner, row.ticker, row.asset];
    cells.forEach((text, column) => {
      context.fillText(text, (edges[column] ?? 0) + 10, baseline);
    });
    cross(context, typesLeft + row.type * TYPE_WIDTH, y, TYPE_WIDTH);
    for (const amount of row.amounts) cross(context, amountsLeft + amount * AMOUNT_WIDTH, y, AMOUNT_WIDTH);
  });

  context.font = '20px "Liberation Sans"';
  AMOUNT_COLUMNS.forEach((bracket, index) => {
    const column = index % 4;
    const x = LEFT + column * 480;
    const y = bottom + 50 + Math.floor(index / 4) * 32;
    context.fillText(`${AMOUNT_LETTERS[index]}  ${bracket}`, x, y);
  });
  return new Uint8Array(canvas.toBuffer('image/png'));
}

/** A typed "X" in the cell whose left edge is `x` on the row starting at `y`. */
function cross(context: SKRSContext2D, x: number, y: number, width: number): void {
  const inset = 18;
  context.lineWidth = 4;
  context.beginPath();
  context.moveTo(x + inset, y + inset);
  context.lineTo(x + width - inset, y + ROW - inset);
  context.moveTo(x + width - inset, y + inset);
  context.lineTo(x + inset, y + ROW - inset);
  context.stroke();
  context.lineWidth = 3;
}
