import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, parseDate } from './dates.js';

describe('parseDate', () => {
  it.each([
    ['11/10/2020', '2020-11-10'],
    ['1/7/2022', '2022-01-07'],
    ['2022-04-19', '2022-04-19'],
    ['2024-02-29', '2024-02-29'],
    ['2022-04-19T00:00:00', '2022-04-19'],
  ])('%s -> %s', (text, iso) => expect(parseDate(text)).toBe(iso));

  it.each(['2023-02-29', '13/01/2020', '00/10/2020', 'yesterday', '', '2020/01/01'])('rejects %j', (text) =>
    expect(parseDate(text)).toBeNull(),
  );

  it('round-trips every real calendar day', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }),
        (date) => {
          const iso = date.toISOString().slice(0, 10);
          const [y, m, d] = iso.split('-');
          expect(parseDate(`${m}/${d}/${y}`)).toBe(iso);
          expect(daysBetween(iso, addDays(iso, 45))).toBe(45);
        },
      ),
    );
  });
});
