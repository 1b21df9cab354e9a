import { describe, expect, it } from 'vitest';
import { normalizeIdentifier } from './company-links.js';

describe('normalizeIdentifier', () => {
  it('writes CIKs without leading zeros and refuses non-digits', () => {
    expect(normalizeIdentifier('cik', '0000320193')).toBe('320193');
    expect(normalizeIdentifier('cik', 'CIK320193')).toBeNull();
  });
  it('upper-cases CUSIPs and drops spaces', () => {
    expect(normalizeIdentifier('cusip', '037833 10 0')).toBe('037833100');
    expect(normalizeIdentifier('cusip', 'x')).toBeNull();
  });
  it('reduces names to the company name key, so two spellings meet', () => {
    expect(normalizeIdentifier('name', 'LOCKHEED MARTIN CORP')).toBe(
      normalizeIdentifier('name', 'Lockheed Martin Corporation'),
    );
    expect(normalizeIdentifier('name', '  ')).toBeNull();
  });
});
