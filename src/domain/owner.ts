// Senate pages say "Spouse"; House PDFs say "SP"; data sets say "spouse" or "--".
import { ownEntry } from './lookup.js';

export type Owner = 'Self' | 'Spouse' | 'Joint' | 'Dependent Child';

const OWNERS: Record<string, Owner> = {
  self: 'Self',
  spouse: 'Spouse',
  sp: 'Spouse',
  joint: 'Joint',
  jt: 'Joint',
  child: 'Dependent Child',
  'dependent child': 'Dependent Child',
  dependent: 'Dependent Child',
  dc: 'Dependent Child',
};

/**
 * Returns the owner, or null when the source does not say. `blankMeansSelf` is for House PDFs,
 * where an empty owner column means the filer.
 */
export function normalizeOwner(raw: string | null | undefined, blankMeansSelf = false): Owner | null {
  const text = (raw ?? '').trim().toLowerCase();
  if (text === '') return blankMeansSelf ? 'Self' : null;
  return ownEntry(OWNERS, text) ?? null;
}
