// What record stores of several sources share: the content hash an upsert compares, and the link
// of a name a record carries to a company in the identity table.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { normalizeIdentifier } from '../../market/company-links.js';
import type { CompanyMatcher } from '../../market/company-match.js';
import { saveCompanyLinks } from '../../storage/repositories/company-links.js';
import type { Database } from '../../storage/schema.js';

/** The hash of a record's stored columns: equal hashes mean an unchanged record. */
export function contentHash(columns: object): string {
  return createHash('sha256').update(JSON.stringify(columns)).digest('hex');
}

/** The name's link (or that it is known and unmatched) in the company identity table. */
export async function linkName(
  db: Kysely<Database>,
  name: string,
  match: ReturnType<CompanyMatcher['match']>,
  now: string,
  source: string,
): Promise<void> {
  const value = normalizeIdentifier('name', name);
  if (!value) return;
  await saveCompanyLinks(
    db,
    [
      {
        identifier_kind: 'name',
        identifier_value: value,
        ticker: match?.ticker ?? null,
        display_name: name,
        // An unmatched name is kept as known-but-unlisted under the weakest method.
        method: match?.method ?? 'normalized',
        confidence: match?.confidence ?? 0,
        source,
      },
    ],
    now,
  );
}
