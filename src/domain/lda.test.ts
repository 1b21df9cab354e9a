// The Senate LDA's fixed vocabularies, as its API (lda.senate.gov/api) lists them: the
// `general_issue_code` filter of /lobbying accepts the codes and answers with their names.
import { describe, expect, it } from 'vitest';
import { FILING_PERIODS, LDA_ISSUE_CODES } from './lda.js';

describe('LDA general issue codes', () => {
  it('has the LDA list of issue areas, each a three-letter code with a name', () => {
    const codes = Object.keys(LDA_ISSUE_CODES);
    expect(codes.length).toBe(79);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect(LDA_ISSUE_CODES[code], code).toMatch(/^[A-Z][\w ,/()&.'-]+$/);
    }
    // No two codes share a name (a name read back finds one code).
    expect(new Set(Object.values(LDA_ISSUE_CODES)).size).toBe(codes.length);
  });

  it.each([
    ['DEF', 'Defense'],
    ['HCR', 'Health Issues'],
    ['BAN', 'Banking'],
    ['BNK', 'Bankruptcy'],
    ['TAX', 'Taxation/Internal Revenue Code'],
    ['FIN', 'Financial Institutions/Investments/Securities'],
    ['MMM', 'Medicare/Medicaid'],
    ['ENG', 'Energy/Nuclear'],
    ['WEL', 'Welfare'],
  ])('names %s %j', (code, name) => {
    expect(LDA_ISSUE_CODES[code]).toBe(name);
  });
});

describe('LDA filing periods', () => {
  it('are the four quarters and the two half-year reports', () => {
    expect([...FILING_PERIODS].sort()).toEqual(
      ['first_quarter', 'second_quarter', 'third_quarter', 'fourth_quarter', 'mid_year', 'year_end'].sort(),
    );
  });
});
