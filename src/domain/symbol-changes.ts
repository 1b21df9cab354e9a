// Symbol changes: a company that kept trading under a new symbol (Facebook's FB became META). The
// price files keep a company's whole history under its current symbol, and filers keep writing the
// symbol they know, so a trade filed as FB is priced from META's series and a question about META
// also finds the trades filed as FB. Renames belong here (the same shares under a new symbol), never
// a merger into another company's shares; the one other kind is a successor that continues the whole
// company under a new issuer (Paramount Global's holders took Paramount Skydance's shares, and the
// S&P 500 kept its seat): one company to search and classify, but not one price series, since a
// provider's successor series starts on the day of the change. Symbols are reused (WTW was Weight Watchers before
// it was Willis Towers Watson; BBT was BB&T before it was Beacon Financial), so every entry is
// dated: the old symbol means the company until the day another company was given it.
// Pure: read by the quality rules, the priced symbol of a trade, the assistant's ticker lookup and
// search (a company's trades under every symbol it was filed under).

export interface SymbolChange {
  /** The symbol the company traded under before the change. */
  old: string;
  /**
   * `rename`: the same shares under a new symbol, whose price series carries the old one's history.
   * `successor`: a new issuer continues the company; its series starts at `effective`.
   */
  kind: 'rename' | 'successor';
  /** The symbol it trades under from `effective` on. */
  new: string;
  /** The first trading day under the new symbol (YYYY-MM-DD). */
  effective: string;
  /** The company, with its former name; no figures (the assistant states no number no tool returned). */
  company: string;
  /**
   * The day the old symbol began to name another company, or null when it has not. Until then a
   * trade filed under the old symbol is this company's: filers keep writing it after the change
   * (FB-filed trades of 2022 and 2025 describe "Meta Platforms").
   */
  oldReusedFrom: string | null;
  /** Where the fact is stated publicly. */
  source: string;
}

/** Reviewed by hand; each entry's source says where its date is stated. Add an entry the same way. */
export const SYMBOL_CHANGES: readonly SymbolChange[] = [
  {
    kind: 'rename',
    old: 'FB',
    new: 'META',
    effective: '2022-06-09',
    company: 'Meta Platforms, Inc. (formerly Facebook, Inc.)',
    oldReusedFrom: null,
    source: 'Meta Platforms investor release of 2021-10-28: Nasdaq shares trade as META from 2022-06-09',
  },
  {
    kind: 'rename',
    old: 'ANTM',
    new: 'ELV',
    effective: '2022-06-28',
    company: 'Elevance Health, Inc. (formerly Anthem, Inc.)',
    oldReusedFrom: null,
    source:
      'Elevance Health press release and 8-K of 2022-06-28: name and NYSE symbol ELV effective that day',
  },
  {
    kind: 'rename',
    old: 'SQ',
    new: 'XYZ',
    effective: '2025-01-21',
    company: 'Block, Inc. (formerly Square, Inc.)',
    oldReusedFrom: null,
    source: 'Block, Inc. press release of January 2025: NYSE symbol changes from SQ to XYZ on 2025-01-21',
  },
  {
    kind: 'rename',
    old: 'DISCA',
    new: 'WBD',
    effective: '2022-04-11',
    company: 'Warner Bros. Discovery, Inc. (formerly Discovery, Inc., Series A)',
    oldReusedFrom: null,
    source:
      'Warner Bros. Discovery 8-K of 2022-04-08: Discovery, Inc. renamed on closing the WarnerMedia merger; Nasdaq: WBD from 2022-04-11',
  },
  {
    kind: 'rename',
    old: 'DISCK',
    new: 'WBD',
    effective: '2022-04-11',
    company: 'Warner Bros. Discovery, Inc. (formerly Discovery, Inc., Series C)',
    oldReusedFrom: null,
    source:
      'Warner Bros. Discovery 8-K of 2022-04-08: every Discovery series became one WBD share; Nasdaq: WBD from 2022-04-11',
  },
  {
    kind: 'rename',
    old: 'CBS',
    new: 'VIAC',
    effective: '2019-12-05',
    company: 'ViacomCBS Inc. (formerly CBS Corporation, the surviving company of the CBS-Viacom merger)',
    oldReusedFrom: null,
    source: 'ViacomCBS press release of 2019-12-04: the merger closed; Nasdaq: VIAC from 2019-12-05',
  },
  {
    kind: 'rename',
    old: 'VIAC',
    new: 'PARA',
    effective: '2022-02-16',
    company: 'Paramount Global (formerly ViacomCBS Inc.)',
    oldReusedFrom: null,
    source: 'Paramount Global press release of 2022-02-15: renamed; Nasdaq: PARA from 2022-02-16',
  },
  {
    kind: 'successor',
    old: 'PARA',
    new: 'PSKY',
    effective: '2025-08-07',
    company:
      'Paramount Skydance Corporation (successor of Paramount Global on its merger with Skydance Media)',
    oldReusedFrom: '2025-08-07',
    source:
      'Paramount Skydance press release of 2025-08-07: the Skydance transactions closed and the Class B shares trade on Nasdaq as PSKY from that day; the S&P 500 list keeps the seat (PSKY, date added 1994-09-30). The directories now list PARA for another company',
  },
  {
    kind: 'rename',
    old: 'UTX',
    new: 'RTX',
    effective: '2020-04-03',
    company:
      'RTX Corporation (formerly United Technologies Corporation, renamed Raytheon Technologies on the Raytheon merger)',
    oldReusedFrom: null,
    source:
      'Raytheon Technologies 8-K of 2020-04-03: the merger closed and the NYSE symbol became RTX that day',
  },
  {
    kind: 'rename',
    old: 'BBT',
    new: 'TFC',
    effective: '2019-12-09',
    company: 'Truist Financial Corporation (formerly BB&T Corporation, renamed on the SunTrust merger)',
    oldReusedFrom: '2025-09-02',
    source:
      'Truist press release of 2019-12-06: NYSE: TFC from 2019-12-09. BBT reused by Beacon Financial Corporation (Berkshire Hills and Brookline) from September 2025',
  },
  {
    kind: 'rename',
    old: 'WTW',
    new: 'WW',
    effective: '2018-12-01',
    company: 'WW International, Inc. (formerly Weight Watchers International, Inc.)',
    oldReusedFrom: '2022-01-10',
    source:
      'Weight Watchers renamed WW, announced 2018-09-24; the day the symbol changed is to be confirmed (no trade in the data falls between 2018-09 and 2019-02 under WW). WTW reused by Willis Towers Watson from January 2022',
  },
  {
    kind: 'rename',
    old: 'WLTW',
    new: 'WTW',
    effective: '2022-01-10',
    company: 'Willis Towers Watson Public Limited Company',
    oldReusedFrom: null,
    source:
      'Willis Towers Watson rebrand of January 2022: Nasdaq symbol WLTW became WTW; the day is to be confirmed (no trade in the data falls between 2021-10 and 2023-07 under either symbol)',
  },
];

export interface CurrentSymbol {
  /** The symbol the company trades under now (the filed one when no change applies). */
  symbol: string;
  /** The changes followed, oldest first: empty when the filed symbol is current. */
  changes: SymbolChange[];
}

/**
 * Which changes a chain follows: `renames` only (the symbol whose price series holds a trade), or
 * `successors` too (the company that trades now).
 */
export type SymbolChangesFollowed = 'renames' | 'successors';

/**
 * The symbol a company filed as `symbol` on `date` trades under now: FB on 2021-05-14 is META;
 * WTW on 2017-01-24 is WW (Weight Watchers), WTW on 2023-08-10 stays WTW (Willis Towers Watson).
 * Chains are followed (CBS → VIAC → PARA → PSKY), each next change only if it came after the one
 * before (WLTW → WTW in 2022 does not go on to Weight Watchers' WTW → WW of 2018). With `renames`,
 * a successor is not followed: the symbol whose price series holds the trade (PARA, not PSKY).
 */
export function currentSymbolOf(
  symbol: string,
  date: string,
  follow: SymbolChangesFollowed = 'successors',
): CurrentSymbol {
  const changes: SymbolChange[] = [];
  let current = symbol.toUpperCase();
  for (;;) {
    const after = changes[changes.length - 1]?.effective;
    const next = SYMBOL_CHANGES.find(
      (change) =>
        change.old === current &&
        (follow === 'successors' || change.kind === 'rename') &&
        // Reuse decides what the filed symbol meant; a later link's symbol being reused since
        // does not change which company the filer named (CBS stays Paramount's whatever PARA became).
        (after !== undefined || change.oldReusedFrom === null || date < change.oldReusedFrom) &&
        (after === undefined || change.effective > after),
    );
    if (!next) return { symbol: current, changes };
    changes.push(next);
    current = next.new;
  }
}

/**
 * Every symbol linked to this one by the table, itself first: the symbols a company may have been
 * filed under (META: META, FB; WTW: WTW, WW, WLTW). A wide net: which of them means the same
 * company on a trade's date is `sameCompanyOn`'s answer.
 */
export function linkedSymbols(symbol: string): string[] {
  const linked = [symbol.toUpperCase()];
  for (let index = 0; index < linked.length; index++) {
    const at = linked[index];
    for (const change of SYMBOL_CHANGES) {
      const other = change.old === at ? change.new : change.new === at ? change.old : undefined;
      if (other !== undefined && !linked.includes(other)) linked.push(other);
    }
  }
  return linked;
}

/**
 * Whether a trade filed as `filed` on `date` is in the company someone asking for `asked` means:
 * the same symbol, or both symbols leading to the same current one on that date (a META question
 * finds FB-filed trades; a WTW question about 2017 finds Weight Watchers, not Willis Towers Watson).
 */
export function sameCompanyOn(filed: string, asked: string, date: string): boolean {
  if (filed.toUpperCase() === asked.toUpperCase()) return true;
  return currentSymbolOf(filed, date).symbol === currentSymbolOf(asked, date).symbol;
}

/** A span of transaction dates over which a filed symbol means a company now trading under another. */
export interface SymbolSpan {
  /** The symbol as filed. */
  filed: string;
  /** The first transaction date of the span, or null from the start. */
  from: string | null;
  /** The first transaction date after the span, or null to the end. */
  until: string | null;
  /** The symbol the company trades under now (`currentSymbolOf` for every date of the span). */
  company: string;
}

/**
 * Every symbol of the table and the dates over which it means another company's current symbol:
 * FB at any date is META; BBT before 2025-09-02 is TFC (after, it is Beacon Financial's own BBT).
 * Spans where a symbol means itself are left out. Only the days an old symbol was reused change
 * `currentSymbolOf`'s answer for a symbol, so the spans are cut there. Lets a query group trades by
 * company without reading the table row by row.
 */
export function symbolSpans(): readonly SymbolSpan[] {
  // The table is a reviewed constant: its spans are worked out once per process.
  spansOfTable ??= computeSymbolSpans();
  return spansOfTable;
}

let spansOfTable: readonly SymbolSpan[] | undefined;

function computeSymbolSpans(): readonly SymbolSpan[] {
  const symbols = [...new Set(SYMBOL_CHANGES.flatMap((change) => [change.old, change.new]))];
  const cuts = [
    ...new Set(SYMBOL_CHANGES.flatMap((change) => (change.oldReusedFrom ? [change.oldReusedFrom] : []))),
  ].sort();
  const spans: SymbolSpan[] = [];
  for (const filed of symbols) {
    const bounds = [null, ...cuts];
    for (let index = 0; index < bounds.length; index++) {
      const from = bounds[index] ?? null;
      const until = cuts[index] ?? null;
      const company = currentSymbolOf(filed, from ?? '').symbol;
      const last = spans[spans.length - 1];
      if (last && last.filed === filed && last.company === company && last.until === from) last.until = until;
      else spans.push({ filed, from, until, company });
    }
  }
  return spans.filter((span) => span.company !== span.filed);
}

/**
 * The company a symbol names once every dated change of the table has passed: FB names Meta
 * Platforms (META), BBT names Beacon Financial (BBT), not Truist.
 */
export function symbolNow(symbol: string): string {
  return currentSymbolOf(symbol, '9999-12-31').symbol;
}
