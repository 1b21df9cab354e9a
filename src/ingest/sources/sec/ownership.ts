// Forms 3, 4 and 5 (and their /A amendments): the `ownershipDocument` XML every insider filing has
// used since 2003. Pure: bytes of XML in, typed rows out. A value can carry footnote references
// (`<footnoteId id="F1"/>`) beside or instead of its `<value>`; each row keeps the texts of the
// footnotes on any of its values, and which field each one annotates.
import {
  attribute,
  descend,
  flagOf,
  isoDateOf,
  numberOf,
  parseXml,
  textAt,
  textOf,
  type XmlNode,
} from './xml.js';

export interface OwnershipIssuer {
  cik: string | null;
  name: string | null;
  ticker: string | null;
}

export interface OwnershipOwner {
  cik: string | null;
  name: string | null;
  is_director: boolean;
  is_officer: boolean;
  is_ten_percent_owner: boolean;
  is_other: boolean;
  officer_title: string | null;
  other_text: string | null;
}

export interface FootnoteRef {
  /** The element the footnote annotates, e.g. `transactionPricePerShare`. */
  field: string;
  id: string;
}

export interface OwnershipTransaction {
  table: 'non_derivative' | 'derivative';
  security: string | null;
  date: string | null;
  /** P, S, A, M, F, G, X, C, D, J, ... as filed. */
  code: string | null;
  shares: number | null;
  price: number | null;
  acquired_disposed: 'A' | 'D' | null;
  shares_after: number | null;
  direct_indirect: 'D' | 'I' | null;
  nature_of_ownership: string | null;
  equity_swap: boolean;
  /** Derivative rows only: exercise price, dates and the underlying security. */
  conversion_price: number | null;
  exercise_date: string | null;
  expiration_date: string | null;
  underlying_security: string | null;
  underlying_shares: number | null;
  /**
   * True when a footnote on this row cites Rule 10b5-1, or the row is an open-market trade (P/S) in a
   * filing whose 10b5-1 box is checked or whose remarks cite the rule.
   */
  ten_b5_1: boolean;
  /** The plan's adoption date when a footnote on this row or the remarks state it. */
  ten_b5_1_adopted: string | null;
  footnotes: string[];
  footnote_refs: FootnoteRef[];
}

export interface OwnershipHolding {
  table: 'non_derivative' | 'derivative';
  security: string | null;
  shares_owned: number | null;
  direct_indirect: 'D' | 'I' | null;
  nature_of_ownership: string | null;
  conversion_price: number | null;
  underlying_security: string | null;
  underlying_shares: number | null;
  footnotes: string[];
  footnote_refs: FootnoteRef[];
}

export interface OwnershipDocument {
  /** 3, 3/A, 4, 4/A, 5, 5/A */
  form: string;
  schema_version: string | null;
  period_of_report: string | null;
  is_amendment: boolean;
  date_of_original_submission: string | null;
  /** The `aff10b5One` box (schema X0508 onwards); null when the schema has no such element. */
  aff_10b5_one: boolean | null;
  issuer: OwnershipIssuer;
  owners: OwnershipOwner[];
  transactions: OwnershipTransaction[];
  holdings: OwnershipHolding[];
  footnotes: { id: string; text: string }[];
  remarks: string | null;
  signatures: { name: string | null; date: string | null }[];
}

export class OwnershipFormatError extends Error {}

const TEN_B5_ONE = /10b5-1|10b5–1|10b-5-1/i;

export function isOwnershipXml(text: string): boolean {
  return /<(?:\w+:)?ownershipDocument[\s>]/.test(text.slice(0, 20000));
}

export function parseOwnershipXml(text: string): OwnershipDocument {
  const root = parseXml(text);
  const document = descend(root, 'ownershipDocument')[0];
  if (document === undefined) throw new OwnershipFormatError('no ownershipDocument element');
  const documentType = textAt(document, 'documentType');
  if (documentType === null) throw new OwnershipFormatError('ownershipDocument without a documentType');

  const footnotes = descend(document, 'footnotes', 'footnote').flatMap((node) => {
    const id = attribute(node, 'id');
    const footnoteText = textOf(node);
    return id && footnoteText ? [{ id, text: footnoteText }] : [];
  });
  const footnoteText = new Map(footnotes.map((footnote) => [footnote.id, footnote.text]));
  const remarks = textAt(document, 'remarks');
  const affRaw = textAt(document, 'aff10b5One');
  const aff = affRaw === null ? null : flagOf(affRaw);
  const documentLevel10b51 = aff === true || (remarks !== null && TEN_B5_ONE.test(remarks));

  const transactions: OwnershipTransaction[] = [
    ...descend(document, 'nonDerivativeTable', 'nonDerivativeTransaction').map((node) =>
      transactionOf(node, 'non_derivative', footnoteText, documentLevel10b51, remarks),
    ),
    ...descend(document, 'derivativeTable', 'derivativeTransaction').map((node) =>
      transactionOf(node, 'derivative', footnoteText, documentLevel10b51, remarks),
    ),
  ];
  const holdings: OwnershipHolding[] = [
    ...descend(document, 'nonDerivativeTable', 'nonDerivativeHolding').map((node) =>
      holdingOf(node, 'non_derivative', footnoteText),
    ),
    ...descend(document, 'derivativeTable', 'derivativeHolding').map((node) =>
      holdingOf(node, 'derivative', footnoteText),
    ),
  ];

  const form = documentType.toUpperCase();
  return {
    form,
    schema_version: textAt(document, 'schemaVersion'),
    period_of_report: isoDateOf(textAt(document, 'periodOfReport')),
    is_amendment: form.endsWith('/A') || textAt(document, 'dateOfOriginalSubmission') !== null,
    date_of_original_submission: isoDateOf(textAt(document, 'dateOfOriginalSubmission')),
    aff_10b5_one: aff,
    issuer: {
      cik: textAt(document, 'issuer', 'issuerCik'),
      name: textAt(document, 'issuer', 'issuerName'),
      ticker: tickerOf(textAt(document, 'issuer', 'issuerTradingSymbol')),
    },
    owners: descend(document, 'reportingOwner').map(ownerOf),
    transactions,
    holdings,
    footnotes,
    remarks,
    signatures: descend(document, 'ownerSignature').map((node) => ({
      name: textAt(node, 'signatureName'),
      date: isoDateOf(textAt(node, 'signatureDate')),
    })),
  };
}

/** Filers write "NONE", "N/A" or nothing for issuers without a listed symbol. */
function tickerOf(raw: string | null): string | null {
  if (raw === null) return null;
  const ticker = raw.trim().toUpperCase();
  if (/^(NONE|N\/A|NA|-+)$/.test(ticker) || ticker === '') return null;
  return ticker;
}

function ownerOf(node: XmlNode): OwnershipOwner {
  const relationship = descend(node, 'reportingOwnerRelationship')[0];
  return {
    cik: textAt(node, 'reportingOwnerId', 'rptOwnerCik'),
    name: textAt(node, 'reportingOwnerId', 'rptOwnerName'),
    is_director: flagOf(textAt(relationship, 'isDirector')),
    is_officer: flagOf(textAt(relationship, 'isOfficer')),
    is_ten_percent_owner: flagOf(textAt(relationship, 'isTenPercentOwner')),
    is_other: flagOf(textAt(relationship, 'isOther')),
    officer_title: textAt(relationship, 'officerTitle'),
    other_text: textAt(relationship, 'otherText'),
  };
}

/** `<name><value>x</value><footnoteId/></name>`: the value's text. */
function valueAt(node: unknown, ...names: string[]): string | null {
  return textAt(node, ...names, 'value');
}

function directIndirect(raw: string | null): 'D' | 'I' | null {
  const code = raw?.trim().toUpperCase();
  return code === 'D' || code === 'I' ? code : null;
}

function acquiredDisposed(raw: string | null): 'A' | 'D' | null {
  const code = raw?.trim().toUpperCase();
  return code === 'A' || code === 'D' ? code : null;
}

function transactionOf(
  node: XmlNode,
  table: OwnershipTransaction['table'],
  footnoteText: Map<string, string>,
  documentLevel10b51: boolean,
  remarks: string | null,
): OwnershipTransaction {
  const refs = footnoteRefs(node);
  const texts = footnoteTexts(refs, footnoteText);
  const planTexts = [...texts, remarks ?? ''].filter((text) => TEN_B5_ONE.test(text));
  const code = textAt(node, 'transactionCoding', 'transactionCode')?.toUpperCase() ?? null;
  // The box and the remarks speak for the filing; of its rows only open-market trades (P, S) can
  // be plan trades: grants, exercises and withholdings are not.
  const tenB5One =
    texts.some((footnote) => TEN_B5_ONE.test(footnote)) ||
    (documentLevel10b51 && (code === 'P' || code === 'S'));
  return {
    table,
    security: valueAt(node, 'securityTitle'),
    date: isoDateOf(valueAt(node, 'transactionDate')),
    code,
    shares: numberOf(valueAt(node, 'transactionAmounts', 'transactionShares')),
    price: numberOf(valueAt(node, 'transactionAmounts', 'transactionPricePerShare')),
    acquired_disposed: acquiredDisposed(
      valueAt(node, 'transactionAmounts', 'transactionAcquiredDisposedCode'),
    ),
    shares_after: numberOf(valueAt(node, 'postTransactionAmounts', 'sharesOwnedFollowingTransaction')),
    direct_indirect: directIndirect(valueAt(node, 'ownershipNature', 'directOrIndirectOwnership')),
    nature_of_ownership: valueAt(node, 'ownershipNature', 'natureOfOwnership'),
    equity_swap: flagOf(textAt(node, 'transactionCoding', 'equitySwapInvolved')),
    conversion_price: numberOf(valueAt(node, 'conversionOrExercisePrice')),
    exercise_date: isoDateOf(valueAt(node, 'exerciseDate')),
    expiration_date: isoDateOf(valueAt(node, 'expirationDate')),
    underlying_security: valueAt(node, 'underlyingSecurity', 'underlyingSecurityTitle'),
    underlying_shares: numberOf(valueAt(node, 'underlyingSecurity', 'underlyingSecurityShares')),
    ten_b5_1: tenB5One,
    ten_b5_1_adopted: tenB5One ? (planTexts.map(adoptionDate).find((date) => date !== null) ?? null) : null,
    footnotes: texts,
    footnote_refs: refs,
  };
}

function holdingOf(
  node: XmlNode,
  table: OwnershipHolding['table'],
  footnoteText: Map<string, string>,
): OwnershipHolding {
  const refs = footnoteRefs(node);
  return {
    table,
    security: valueAt(node, 'securityTitle'),
    shares_owned: numberOf(valueAt(node, 'postTransactionAmounts', 'sharesOwnedFollowingTransaction')),
    direct_indirect: directIndirect(valueAt(node, 'ownershipNature', 'directOrIndirectOwnership')),
    nature_of_ownership: valueAt(node, 'ownershipNature', 'natureOfOwnership'),
    conversion_price: numberOf(valueAt(node, 'conversionOrExercisePrice')),
    underlying_security: valueAt(node, 'underlyingSecurity', 'underlyingSecurityTitle'),
    underlying_shares: numberOf(valueAt(node, 'underlyingSecurity', 'underlyingSecurityShares')),
    footnotes: footnoteTexts(refs, footnoteText),
    footnote_refs: refs,
  };
}

/** Every `footnoteId` inside a row, with the element it sits in, in document order. */
function footnoteRefs(node: XmlNode): FootnoteRef[] {
  const refs: FootnoteRef[] = [];
  const walk = (current: unknown, field: string): void => {
    if (typeof current !== 'object' || current === null) return;
    if (Array.isArray(current)) {
      for (const item of current) walk(item, field);
      return;
    }
    for (const [key, value] of Object.entries(current)) {
      if (key.startsWith('@_') || key === '#text') continue;
      if (key === 'footnoteId') {
        for (const ref of Array.isArray(value) ? value : [value]) {
          const id = attribute(ref, 'id');
          if (id) refs.push({ field, id });
        }
        continue;
      }
      // `value` belongs to its parent's field; other wrappers name the field themselves.
      walk(value, key === 'value' ? field : key);
    }
  };
  walk(node, 'row');
  return refs;
}

function footnoteTexts(refs: FootnoteRef[], footnoteText: Map<string, string>): string[] {
  const seen = new Set<string>();
  const texts: string[] = [];
  for (const ref of refs) {
    if (seen.has(ref.id)) continue;
    seen.add(ref.id);
    texts.push(footnoteText.get(ref.id) ?? `[${ref.id}: footnote text missing from the filing]`);
  }
  return texts;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "…a Rule 10b5-1 trading plan adopted by the reporting person on February 7, 2025" → 2025-02-07. */
function adoptionDate(text: string): string | null {
  const match =
    /adopt\w*[^.]{0,120}?\b(?:on|dated)\s+([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})/i.exec(text) ??
    /adopt\w*[^.]{0,120}?\b(?:on|dated)\s+(\d{1,2})\/(\d{1,2})\/(\d{4})/i.exec(text);
  if (!match) return null;
  const [, first = '', second = '', year = ''] = match;
  const month = /^\d+$/.test(first) ? Number(first) : MONTHS.indexOf(first.slice(0, 3).toLowerCase()) + 1;
  if (month < 1) return null;
  return `${year}-${String(month).padStart(2, '0')}-${second.padStart(2, '0')}`;
}
