// `dcledger import ...` on directories where some files are malformed: every bad file is one line
// naming it and why, the good files are imported, and the command exits non-zero with the count.
// Real files are copied from the shared data into a temporary directory beside constructed ones.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli as cli } from '../test-support/cli.js';

const dataDir = inject('dataDir') ?? '';
const root = mkdtempSync(join(tmpdir(), 'dcledger-import-'));

/** A fresh directory holding `real` files (copied from the shared data) and constructed ones. */
function makeDir(name: string, real: Record<string, string>, constructed: Record<string, string>): string {
  const dir = mkdtempSync(join(root, `${name}-`));
  for (const [file, source] of Object.entries(real)) copyFileSync(join(dataDir, source), join(dir, file));
  for (const [file, content] of Object.entries(constructed)) writeFileSync(join(dir, file), content);
  return dir;
}

const HR1531 = 'related/bills/billstatus-xml/legacy__BILLSTATUS-114hr1531.xml';

describe.skipIf(!dataDir)('dcledger import with malformed files', () => {
  beforeAll(() => {
    process.env.DCLEDGER_DB = join(root, 'import.db');
    delete process.env.DATABASE_URL;
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('bills: a DOCTYPE or a truncated file fails that file, the others are imported', async () => {
    const real = readFileSync(join(dataDir, HR1531), 'utf8');
    const dir = makeDir(
      'bills',
      { 'hr1531.xml': HR1531 },
      {
        // Constructed: an external entity the parser refuses, and a real document cut in half.
        'doctype.xml': `<?xml version="1.0"?><!DOCTYPE billStatus [<!ENTITY x SYSTEM "file:///etc/hostname">]><billStatus><bill><title>&x;</title></bill></billStatus>`,
        'truncated.xml': real.slice(0, Math.floor(real.length / 2)),
        'nobill.xml': '<billStatus><bill><title>no number, type or congress</title></bill></billStatus>',
        // Constructed: an empty page of the congress.gov list, well-formed: listed, not a failure.
        'page.json': '{"bills": []}',
      },
    );
    const result = await cli('import', 'bills', dir);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/5 file\(s\): 1 bills, 1 new/);
    expect(result.out).toMatch(/files that list no bill: page\.json/);
    const lines = result.err.trim().split('\n');
    expect(lines).toEqual([
      'dcledger: doctype.xml: unreadable XML (External entities are not supported)',
      'dcledger: nobill.xml: a BILLSTATUS bill without its number, type or congress',
      expect.stringMatching(/^dcledger: truncated\.xml: not well-formed XML \(line \d+: .+\)$/),
      'dcledger: 3 of 5 file(s) failed; the others were imported',
    ]);

    const single = await cli('import', 'bills', join(dir, 'truncated.xml'));
    expect(single.code).toBe(1);
    expect(single.err).toMatch(/truncated\.xml: not well-formed XML/);
    expect(single.err).toMatch(/1 of 1 file\(s\) failed/);

    const json = await cli('import', 'bills', '--json', dir);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out) as { failed: { file: string; reason: string }[] };
    expect(report.failed.map((failure) => failure.file)).toEqual([
      'doctype.xml',
      'nobill.xml',
      'truncated.xml',
    ]);
  });

  it('trades: a malformed set fails, an empty one is listed, the real one is imported', async () => {
    const dir = makeDir(
      'trades',
      { 'transactions.csv': 'congress/trades-senate/jeremiak-scraper/transactions.csv' },
      { 'broken.json': '[{"senator": "A. Constructed", "ticker":', 'empty.json': '[]' },
    );
    const result = await cli('import', 'trades', dir);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/imported 507 new trades/);
    expect(result.out).toMatch(/files that list no trade: 1 \(empty\.json\)/);
    expect(result.err.trim().split('\n')).toEqual([
      expect.stringMatching(/^dcledger: broken\.json: not valid JSON \(.+\)$/),
      'dcledger: 1 of 3 file(s) failed; the others were imported',
    ]);
  });

  it('fec: a file with no usable line fails, the real one is imported', async () => {
    const dir = makeDir(
      'fec',
      { 'cn.txt': 'related/fec/fec-bulk-2021-2022-cycle_plus_weball24/cn.txt' },
      // Constructed: junk where the committee master file should be.
      { 'cm.txt': 'not|an|fec|line\n\u0000\u0001binary junk\n' },
    );
    const result = await cli('import', 'fec', dir);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/cn\.txt \(candidates\): \d+ rows/);
    expect(result.err.trim().split('\n')).toEqual([
      'dcledger: cm.txt: yielded nothing: 2 line(s), none a usable committees row',
      'dcledger: 1 of 2 file(s) failed; the others were imported',
    ]);
  });

  it('legislators: every bad file of the set is named, and nothing is written', async () => {
    const dir = makeDir(
      'legislators',
      { 'executive.yaml': 'congress/legislators/executive.yaml' },
      {
        // Constructed: a truncated JSON roster and a committees file that is no list.
        'legislators-current.json': '[{"id": {"bioguide": "X000001"}, "name": ',
        'committees-current.yaml': 'committees: [unclosed',
      },
    );
    const result = await cli('import', 'legislators', dir);
    expect(result.code).toBe(1);
    const lines = result.err.trim().split('\n');
    expect(lines[0]).toMatch(/^dcledger: legislators-current\.json: cannot be parsed \(.+\)$/);
    expect(lines[1]).toMatch(/^dcledger: committees-current\.yaml: cannot be parsed \(.+\)$/);
    expect(lines[2]).toMatch(/^dcledger: 2 of 3 file\(s\) in .+ could not be used; nothing was imported$/);
    expect(lines).toHaveLength(3);
  });
});
