// Field-by-field agreement between our Form 4 parser and go-edgar's answers for the same XML
// (its `expected.json` files: `{metadata, expected:{issuer, reportingOwners, transactions,
// derivatives, footnotes, has10b51Plan, ...}}`). Pure: both sides are passed in.
import type { OwnershipDocument, OwnershipTransaction } from '../../src/ingest/sources/sec/ownership.js';

export interface FieldAgreement {
  field: string;
  agree: number;
  total: number;
}

export interface GoEdgarComparison {
  fields: FieldAgreement[];
  /** "transactions[2].pricePerShare: ours 66.7, go-edgar 66.70" */
  disagreements: string[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function record(value: Json | undefined): { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

function list(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

export function compareWithGoEdgar(expectedFile: Json, ours: OwnershipDocument): GoEdgarComparison {
  const expected = record(record(expectedFile).expected);
  const tally = new Map<string, FieldAgreement>();
  const disagreements: string[] = [];
  const check = (field: string, where: string, mine: unknown, theirs: Json | undefined) => {
    const entry = tally.get(field) ?? { field, agree: 0, total: 0 };
    entry.total += 1;
    const same = JSON.stringify(mine ?? null) === JSON.stringify(theirs ?? null);
    if (same) entry.agree += 1;
    else
      disagreements.push(
        `${where}.${field}: ours ${JSON.stringify(mine ?? null)}, go-edgar ${JSON.stringify(theirs ?? null)}`,
      );
    tally.set(field, entry);
  };

  const issuer = record(expected.issuer);
  check('issuer.cik', 'issuer', ours.issuer.cik, issuer.cik);
  check('issuer.name', 'issuer', ours.issuer.name, issuer.name);
  check('issuer.ticker', 'issuer', ours.issuer.ticker, issuer.ticker);
  check(
    'has10b51Plan',
    'document',
    ours.transactions.some((row) => row.ten_b5_1),
    expected.has10b51Plan,
  );

  for (const [index, owner] of list(expected.reportingOwners).entries()) {
    const mine = ours.owners[index];
    const relation = record(record(owner).relationship);
    const where = `owners[${index}]`;
    check('owner.cik', where, mine?.cik, record(owner).cik);
    check('owner.name', where, mine?.name, record(owner).name);
    check('owner.isDirector', where, mine?.is_director, relation.isDirector);
    check('owner.isOfficer', where, mine?.is_officer, relation.isOfficer);
    check('owner.isTenPercentOwner', where, mine?.is_ten_percent_owner, relation.isTenPercentOwner);
    check('owner.officerTitle', where, mine?.officer_title, relation.officerTitle);
  }

  const tables: [string, OwnershipTransaction[], Json[]][] = [
    [
      'transactions',
      ours.transactions.filter((row) => row.table === 'non_derivative'),
      list(expected.transactions),
    ],
    [
      'derivatives',
      ours.transactions.filter((row) => row.table === 'derivative'),
      list(expected.derivatives),
    ],
  ];
  for (const [name, mineRows, theirRows] of tables) {
    check(`${name}.count`, name, mineRows.length, theirRows.length);
    for (const [index, theirs] of theirRows.entries()) {
      const row = record(theirs);
      const mine = mineRows[index];
      const where = `${name}[${index}]`;
      check('securityTitle', where, mine?.security, row.securityTitle);
      check('transactionDate', where, mine?.date, row.transactionDate);
      check('transactionCode', where, mine?.code, row.transactionCode);
      check('shares', where, mine?.shares, row.shares);
      check('pricePerShare', where, mine?.price, row.pricePerShare);
      check('acquiredDisposed', where, mine?.acquired_disposed, row.acquiredDisposed);
      check('sharesOwnedFollowing', where, mine?.shares_after, row.sharesOwnedFollowing);
      check('directIndirect', where, mine?.direct_indirect, row.directIndirect);
      check('equitySwapInvolved', where, mine?.equity_swap, row.equitySwapInvolved);
      check('is10b51Plan', where, mine?.ten_b5_1, row.is10b51Plan);
      check('plan10b51AdoptionDate', where, mine?.ten_b5_1_adopted, row.plan10b51AdoptionDate);
      const ids = mine ? [...new Set(mine.footnote_refs.map((ref) => ref.id))] : [];
      const theirIds = list(row.footnotes);
      check('footnotes', where, ids, theirIds.length === 0 ? [] : theirIds);
      if (name === 'derivatives') {
        check('exercisePrice', where, mine?.conversion_price, row.exercisePrice);
        check('expirationDate', where, mine?.expiration_date, row.expirationDate);
        check('underlyingTitle', where, mine?.underlying_security, row.underlyingTitle);
        check('underlyingShares', where, mine?.underlying_shares, row.underlyingShares);
      }
    }
  }
  // go-edgar keeps the remarks as a footnote with id "REMARKS" and footnote text with its line
  // breaks; we keep remarks apart and collapse whitespace, so both are compared that way.
  const theirFootnotes = list(expected.footnotes).map(record);
  const remarks = theirFootnotes.find((footnote) => footnote.id === 'REMARKS');
  if (remarks) check('remarks', 'document', ours.remarks, collapse(remarks.text));
  for (const [index, footnote] of theirFootnotes.filter((note) => note.id !== 'REMARKS').entries()) {
    const mine = ours.footnotes[index];
    check('footnote.id', `footnotes[${index}]`, mine?.id, footnote.id);
    check('footnote.text', `footnotes[${index}]`, mine?.text, collapse(footnote.text));
  }
  return { fields: [...tally.values()], disagreements };
}

function collapse(value: Json | undefined): Json {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : (value ?? null);
}
