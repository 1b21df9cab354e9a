import { describe, expect, it } from 'vitest';
import { displayName, nameFromLabel } from '../filers.js';

describe('nameFromLabel', () => {
  it('reads a filer name out of a listing label or file name', () => {
    expect(nameFromLabel('Donald J. Trump 11.14.2025 278-T.pdf')).toBe('Donald J. Trump');
    expect(nameFromLabel('Deanne-Criswell-01.04.2023-278T.pdf')).toBe('Deanne Criswell');
    expect(nameFromLabel('Marcus-Molinaro-2026-278TERM.pdf')).toBe('Marcus Molinaro');
    expect(nameFromLabel('Flynn_Michael_3-31-2017.pdf')).toBe('Flynn Michael');
  });
});

describe('displayName', () => {
  it('drops honorifics, reorders "Last, First" and title-cases names typed in capitals', () => {
    expect(displayName('Hon. Nancy Pelosi')).toBe('Nancy Pelosi');
    expect(displayName('Criswell, Deanne')).toBe('Deanne Criswell');
    expect(displayName('LINDA MCMAHON')).toBe('Linda McMahon');
    expect(displayName('Lori M Chavez-Deremer')).toBe('Lori M Chavez-Deremer');
  });
});
