// The columns of a House paper PTR table: the ruled columns a grid has (./table.ts), matched by
// width and order to the form's owner, asset, transaction type marks, two dates and amount marks
// (A..J or A..K), and the role of each type column read from its header when it has one. Every
// layout the form comes in keeps that order (house-form.ts describes them). A page whose tables
// match no form together is cut to the table that does (fittedTable).
import type { GrayImage } from './bitmap.js';
import { blankedAbove, blankedBelow, findGrid, type Grid, tableSplits } from './table.js';

export type TypeRole =
  | 'purchase'
  | 'sale'
  | 'partial_sale'
  | 'exchange'
  | 'cap_gains'
  | 'partial'
  | 'unknown';

export interface Span {
  left: number;
  right: number;
}

export interface HouseColumns {
  owner: Span | null;
  asset: Span;
  types: Array<Span & { role: TypeRole }>;
  date: Span;
  notification: Span;
  amounts: Span[];
}

/** The columns of the form, by width and order; null when the table is no House PTR table. */
export function fitColumns(grid: Grid): HouseColumns | null {
  const xs = grid.columns;
  const spans: Span[] = [];
  for (let i = 0; i + 1 < xs.length; i++) spans.push({ left: xs[i] ?? 0, right: xs[i + 1] ?? 0 });
  const width = (span: Span) => span.right - span.left;
  let assetIndex = -1;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    if (!span || width(span) < 200) continue;
    if (assetIndex < 0 || width(span) > width(spans[assetIndex] as Span)) assetIndex = i;
  }
  if (assetIndex < 0) return null;
  const asset = spans[assetIndex] as Span;
  const before = spans.slice(0, assetIndex);
  const owner = before.length > 0 ? { left: before[0]?.left ?? asset.left, right: asset.left } : null;
  const after = spans.slice(assetIndex + 1);
  // The two date columns: the first pair of wide columns after the type marks, with room for the
  // amount columns to their right.
  let dateIndex = -1;
  for (let i = 0; i + 1 < after.length; i++) {
    const a = after[i] as Span;
    const b = after[i + 1] as Span;
    const rest = (after[after.length - 1]?.right ?? 0) - b.right;
    const similar = Math.abs(width(a) - width(b)) <= Math.max(width(a), width(b)) * 0.45;
    if (width(a) >= 95 && width(b) >= 95 && similar && rest >= 5 * 35) {
      dateIndex = i;
      break;
    }
  }
  if (dateIndex < 1) return null;
  if (twoTypeColumns(after, dateIndex)) dateIndex++;
  const date = after[dateIndex] as Span;
  const notification = after[dateIndex + 1] as Span;
  const typeSpans = regularize(after.slice(0, dateIndex));
  const amounts = fitAmountColumns(after.slice(dateIndex + 2));
  if (typeSpans.length < 2 || typeSpans.length > 6 || amounts.length < 8 || amounts.length > 12) return null;
  const roles = defaultRoles(typeSpans.length);
  return {
    owner,
    asset,
    types: typeSpans.map((span, index) => ({ ...span, role: roles[index] ?? 'unknown' })),
    date,
    notification,
    amounts: amounts.slice(0, 11),
  };
}

/**
 * The page's table matched to the form. The Clerk's continuation sheet prints a second table
 * under the transactions, for the filer's notes: found as one, the two have no column that runs
 * down to the foot, and match no form. Then the page is cut where its ruled tables part (a band
 * between two row rules that no vertical rule crosses) and the table above the cut is taken; a
 * table below it that matches the form too would hold rows this does not read, and is said.
 */
export function fittedTable(
  image: GrayImage,
  grid: Grid,
): { grid: Grid; columns: HouseColumns; below: string | null } | null {
  const columns = fitColumns(grid);
  if (columns) return { grid, columns, below: null };
  for (const cut of tableSplits(grid)) {
    const upper = findGrid(blankedBelow(image, cut));
    const upperColumns = upper ? fitColumns(upper) : null;
    if (!upper || !upperColumns) continue;
    const lower = findGrid(blankedAbove(image, cut));
    const below = lower && fitColumns(lower) ? 'a second transactions table under the first, not read' : null;
    return { grid: upper, columns: upperColumns, below };
  }
  return null;
}

/**
 * Whether the first column of the date pair at `index` is two type columns whose rule between
 * them the scan lost (a thin rule on the newer Clerk form): as wide as two of the type columns
 * before it, and followed by a pair that makes the dates too, both of whose columns are wider.
 */
function twoTypeColumns(after: readonly Span[], index: number): boolean {
  const width = (span: Span | undefined) => (span ? span.right - span.left : 0);
  const types = after
    .slice(0, index)
    .map(width)
    .sort((a, b) => a - b);
  const typical = types[Math.floor(types.length / 2)] ?? 0;
  const first = width(after[index]);
  const [date, notification] = [width(after[index + 1]), width(after[index + 2])];
  return (
    types.length >= 2 &&
    Math.abs(first - 2 * typical) <= 0.15 * 2 * typical &&
    date > first &&
    notification > first &&
    Math.abs(date - notification) <= Math.max(date, notification) * 0.45
  );
}

/**
 * A run of mark columns as printed: a sliver between a rule and a box edge joins its neighbour,
 * and a span twice the usual width (a rule the scan lost) is split.
 */
function regularize(spans: readonly Span[]): Span[] {
  if (spans.length === 0) return [];
  const widths = spans.map((span) => span.right - span.left).sort((a, b) => a - b);
  const typical = widths[Math.floor(widths.length / 2)] ?? 1;
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (span.right - span.left < typical * 0.35 && last) {
      last.right = span.right;
      continue;
    }
    if (last && last.right - last.left < typical * 0.35) {
      last.right = span.right;
      continue;
    }
    merged.push({ ...span });
  }
  const out: Span[] = [];
  for (const span of merged) {
    const parts = Math.max(1, Math.round((span.right - span.left) / typical));
    const step = (span.right - span.left) / parts;
    for (let i = 0; i < parts; i++)
      out.push({ left: span.left + i * step, right: span.left + (i + 1) * step });
  }
  return out;
}

/**
 * The amount columns: ten (A-J) or eleven (A-K). When the rules found make ten or eleven columns
 * of like widths (a rule the scan lost split back into two), they are the columns: a filer's
 * spreadsheet sizes each column to its heading, so an even division would cut through its marks.
 * Otherwise, ten or eleven of equal width over the amount area, whichever agrees better with the
 * rules found (faint rules of a scan go missing; box edges do not count), each boundary the rule
 * found near it or the even division where none was.
 */
function fitAmountColumns(spans: readonly Span[]): Span[] {
  const left = spans[0]?.left;
  const right = spans[spans.length - 1]?.right;
  if (left === undefined || right === undefined || right - left < 200) return [];
  const ruled = regularize(spans);
  if (ruled.length === 10 || ruled.length === 11) {
    const widths = ruled.map((span) => span.right - span.left).sort((a, b) => a - b);
    const typical = widths[Math.floor(widths.length / 2)] ?? 1;
    if (widths.every((width) => width >= typical * 0.6 && width <= typical * 1.6)) return ruled;
  }
  const found = spans.slice(1).map((span) => span.left);
  let best: { count: number; score: number; edges: number[] } | null = null;
  for (const count of [11, 10]) {
    const unit = (right - left) / count;
    const tolerance = unit * 0.25;
    const edges: number[] = [left];
    let score = 0;
    for (let i = 1; i < count; i++) {
      const even = left + i * unit;
      const near = found.find((x) => Math.abs(x - even) <= tolerance);
      if (near !== undefined) score++;
      edges.push(near ?? even);
    }
    score -= found.filter((x) => !edges.some((edge) => Math.abs(edge - x) <= tolerance)).length;
    edges.push(right);
    if (best === null || score > best.score) best = { count, score, edges };
  }
  const edges = best?.edges ?? [];
  return edges.slice(1).map((edge, index) => ({ left: edges[index] ?? left, right: edge }));
}

/** Type columns by their count, as every form we know orders them; headers may overrule. */
function defaultRoles(count: number): TypeRole[] {
  if (count === 2) return ['purchase', 'sale'];
  if (count === 3) return ['purchase', 'sale', 'exchange'];
  if (count === 4) return ['purchase', 'sale', 'partial_sale', 'exchange'];
  if (count === 5) return ['purchase', 'sale', 'exchange', 'cap_gains', 'partial'];
  return Array.from({ length: count }, (): TypeRole => 'unknown');
}

/** A type column's role from its header text, or null when the text names none. */
export function roleFromHeader(text: string): TypeRole | null {
  const t = text.toLowerCase().replace(/[^a-z$0-9 ]/g, ' ');
  if (/partial\s*sale/.test(t)) return 'partial_sale';
  if (/capital|gains|exceed|\$200/.test(t)) return 'cap_gains';
  if (/partial|transact/.test(t)) return 'partial';
  if (/purch/.test(t)) return 'purchase';
  if (/exch/.test(t)) return 'exchange';
  if (/\bsal|sale|sell/.test(t)) return 'sale';
  return null;
}
