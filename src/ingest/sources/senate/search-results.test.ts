import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { congressPath } from '../../../test-support/documents.js';
import { nameCase } from '../name-case.js';
import { isSenateSearchJson, parseSenateSearchResults, SenateSearchFormatError } from './search-results.js';

const dataDir = inject('dataDir');

function readJson(...parts: string[]): unknown {
  return JSON.parse(readFileSync(congressPath(dataDir ?? '', ...parts), 'utf8'));
}

describe.skipIf(!dataDir)('eFD search results (real responses)', () => {
  it('reads the Arkansas `data` array: upper-case names, paper UUIDs, report kinds', () => {
    const json = readJson('raw-senate', 'efd-search-json', 'dannguyen_state-index_AR.json');
    expect(isSenateSearchJson(json)).toBe(true);
    const { rows, records_total } = parseSenateSearchResults(json);
    expect(records_total).toBeNull();
    expect(rows).toHaveLength(59);
    expect(rows[0]).toEqual({
      first_name: 'John',
      last_name: 'Boozman',
      filer_name: 'John Boozman',
      office: 'Senator',
      report_kind: 'paper',
      report_id: '9df8ad03-172a-43eb-80f4-b6f311b2aa41',
      report_path: '/search/view/paper/9df8ad03-172a-43eb-80f4-b6f311b2aa41/',
      report_title: 'Periodic Transaction Report for 05/20/2019',
      is_ptr: true,
      is_paper: true,
      is_amendment: false,
      filed_date: '2019-05-20',
    });
    const kinds = rows.reduce<Record<string, number>>((counts, row) => {
      counts[row.report_kind] = (counts[row.report_kind] ?? 0) + 1;
      return counts;
    }, {});
    expect(kinds).toEqual({ paper: 53, 'extension-notice': 5, annual: 1 });
    const extension = rows.find((row) => row.report_kind === 'extension-notice');
    expect(extension).toMatchObject({
      is_ptr: false,
      report_title: 'Annual Report for 2018 Due Date Extension 1',
    });
    expect(
      rows.filter((row) => row.report_title === 'Annual Report (Amendment)').every((row) => row.is_amendment),
    ).toBe(true);
    // Every UUID is lower case, whatever case eFD printed it in.
    expect(rows.map((row) => row.report_id)).toContain('d7eeebcc-603d-408f-a4d1-d56fea29288b');
    expect(rows.every((row) => row.report_id === row.report_id?.toLowerCase())).toBe(true);
    expect(new Set(rows.map((row) => row.filer_name))).toEqual(
      new Set(['John Boozman', 'John N Boozman', 'Tom Cotton', 'Mark L Pryor', 'Conner Eldridge']),
    );
  });

  it('reads the object rows whose first and last names are swapped, trusting "Last, First (Office)"', () => {
    const json = readJson('trades-senate', 'jeremiak-scraper', 'reports_index_2020-03-28.json');
    const { rows } = parseSenateSearchResults(json);
    expect(rows).toHaveLength(2770);
    expect(rows[0]).toMatchObject({
      first_name: 'Lamar',
      last_name: 'Alexander',
      office: 'Senator',
      report_kind: 'ptr',
      report_id: '8db16cde-8a14-4ea2-92ed-71d7f73ad131',
      filed_date: '2019-06-20',
      is_ptr: true,
      is_paper: false,
    });
    const kinds = rows.reduce<Record<string, number>>((counts, row) => {
      counts[row.report_kind] = (counts[row.report_kind] ?? 0) + 1;
      return counts;
    }, {});
    expect(kinds).toEqual({ ptr: 1018, paper: 903, annual: 649, 'extension-notice': 200 });
  });
});

describe('eFD search results (envelope and malformed input)', () => {
  const row = [
    'SUSAN M ',
    'COLLINS',
    'Collins, Susan M. (Senator)',
    '<a href="/search/view/ptr/ABCDEF12-3456-7890-ABCD-EF1234567890/" target="_blank">Periodic Transaction Report for 10/08/2020 (Amendment 1)</a>',
    '10/08/2020',
  ];

  it('reads the full response envelope', () => {
    const page = parseSenateSearchResults({
      draw: 3,
      recordsTotal: 1234,
      recordsFiltered: 1,
      result: 'ok',
      data: [row],
    });
    expect(page.records_total).toBe(1234);
    expect(page.records_filtered).toBe(1);
    expect(page.rows[0]).toMatchObject({
      first_name: 'Susan M',
      last_name: 'Collins',
      office: 'Senator',
      report_kind: 'ptr',
      report_id: 'abcdef12-3456-7890-abcd-ef1234567890',
      is_amendment: true,
      filed_date: '2020-10-08',
    });
  });

  it('refuses what is not search results', () => {
    expect(() => parseSenateSearchResults({ error: 'nope' })).toThrow(SenateSearchFormatError);
    expect(() => parseSenateSearchResults([['too', 'short']])).toThrow(/2 cells/);
    expect(isSenateSearchJson({ data: [] })).toBe(false);
    expect(isSenateSearchJson([{ name: 'x' }])).toBe(false);
  });

  it('title-cases all-caps names and leaves written case alone', () => {
    expect(nameCase('MCCONNELL')).toBe('McConnell');
    expect(nameCase("O'ROURKE")).toBe("O'Rourke");
    expect(nameCase('de la Cruz')).toBe('de la Cruz');
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z][a-z]{1,12}$/), (name) => {
        expect(nameCase(`${name.toUpperCase()} `)).toBe(
          name.startsWith('Mc') ? nameCase(name.toUpperCase()) : name,
        );
        expect(nameCase(name)).toBe(name);
      }),
    );
  });
});
