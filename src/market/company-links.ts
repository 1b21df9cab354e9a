// How identifiers are written into the company identity table, so that every source looks them
// up the same way: CIKs without leading zeros, CUSIPs upper-case without spaces, names as their
// name key (the one company-names.ts gives), UEIs upper-case.
import type { CompanyIdentifierKind } from '../storage/schema/market.js';
import { nameKey } from './company-names.js';

/** The stored form of an identifier, or null when it says nothing (a blank, a name of one letter). */
export function normalizeIdentifier(kind: CompanyIdentifierKind, raw: string): string | null {
  const text = raw.trim();
  if (text === '') return null;
  switch (kind) {
    case 'cik': {
      const digits = text.replace(/^0+/, '');
      return /^\d+$/.test(digits) ? digits : null;
    }
    case 'cusip': {
      const cusip = text.replace(/\s+/g, '').toUpperCase();
      return /^[0-9A-Z]{6,9}$/.test(cusip) ? cusip : null;
    }
    case 'uei':
      return text.toUpperCase();
    case 'name':
      return nameKey(text)?.key ?? null;
  }
}
