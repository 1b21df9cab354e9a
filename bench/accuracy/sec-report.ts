// The SEC section of ACCURACY.md: our Form 4 parser against go-edgar's answers for the same XML
// (`related/form4/go-edgar/<case>.{input.xml,expected.json}`), field by field.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseOwnershipXml } from '../../src/ingest/sources/sec/ownership.js';
import { compareWithGoEdgar, type FieldAgreement } from './sec-go-edgar.js';

export interface SecAccuracy {
  cases: { name: string; agree: number; total: number; disagreements: string[] }[];
  fields: FieldAgreement[];
}

export function secGoEdgarAccuracy(dataDir: string): SecAccuracy {
  const dir = join(dataDir, 'related', 'form4', 'go-edgar');
  const byField = new Map<string, FieldAgreement>();
  const cases = readdirSync(dir)
    .filter((name) => name.endsWith('.input.xml'))
    .sort()
    .map((input) => {
      const name = input.replace('.input.xml', '');
      const expected = JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8'));
      const comparison = compareWithGoEdgar(
        expected,
        parseOwnershipXml(readFileSync(join(dir, input), 'utf8')),
      );
      for (const field of comparison.fields) {
        const entry = byField.get(field.field) ?? { field: field.field, agree: 0, total: 0 };
        entry.agree += field.agree;
        entry.total += field.total;
        byField.set(field.field, entry);
      }
      const agree = comparison.fields.reduce((sum, field) => sum + field.agree, 0);
      const total = comparison.fields.reduce((sum, field) => sum + field.total, 0);
      return { name, agree, total, disagreements: comparison.disagreements };
    });
  return { cases, fields: [...byField.values()] };
}

export function renderSecSection(accuracy: SecAccuracy): string {
  const agree = accuracy.cases.reduce((sum, item) => sum + item.agree, 0);
  const total = accuracy.cases.reduce((sum, item) => sum + item.total, 0);
  const percent = (part: number, whole: number) =>
    whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(2)}%`;
  const lines = [
    '## SEC Form 4 against go-edgar',
    '',
    "Our ownership-document parser (`src/ingest/sources/sec/ownership.ts`) against go-edgar's",
    '`expected.json` for the same five Form 4 XML files (`related/form4/go-edgar/`). Rows are paired in',
    'document order per table; footnote references are compared as the ordered list of ids on a row.',
    'Two representation differences are normalized before comparing, not counted: go-edgar keeps',
    'footnote text with its line breaks (we collapse whitespace) and stores the remarks as a footnote',
    'with id `REMARKS` (we keep `remarks` apart; it is compared with that footnote).',
    'Our 10b5-1 rule per row: a footnote on the row cites Rule 10b5-1, or the row is an open-market trade',
    '(P or S) in a filing whose `aff10b5One` box is checked or whose remarks cite the rule. A first rule',
    '(box checked → every row) disagreed on the 5 option-grant rows (code A) of wave_derivatives; grants',
    'cannot be plan trades, so the rule was narrowed, and go-edgar now agrees on every row.',
    '',
    `**Overall: ${agree} of ${total} field values agree (${percent(agree, total)}).**`,
    '',
    '| case | compared | agree |',
    '|---|---:|---:|',
    ...accuracy.cases.map((item) => `| ${item.name} | ${item.total} | ${item.agree} |`),
    '',
    '| field | compared | agree | agreement |',
    '|---|---:|---:|---:|',
    ...accuracy.fields.map(
      (field) =>
        `| ${field.field} | ${field.total} | ${field.agree} | ${percent(field.agree, field.total)} |`,
    ),
    '',
  ];
  const disagreements = accuracy.cases.flatMap((item) =>
    item.disagreements.map((line) => `- ${item.name}: ${line}`),
  );
  lines.push(disagreements.length === 0 ? 'No disagreements.' : disagreements.join('\n'), '');
  lines.push(
    "Not cross-checked: Schedules 13D/13G have no second parser's answers in the shared data; they rest on",
    'the concrete-value tests of every real document (`src/ingest/sources/sec/sec-documents.test.ts`).',
    '',
  );
  return lines.join('\n');
}
