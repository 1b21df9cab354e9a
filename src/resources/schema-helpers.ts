// TypeBox helpers for resource shapes (resources import neither http nor webhooks).
import { Type } from 'typebox';
import { Nullable } from './schema.js';

export const text = (description: string) => Type.String({ description });
export const maybeText = (description: string) => Nullable(Type.String({ description }));
export const maybeNumber = (description: string) => Nullable(Type.Number({ description }));
export const maybeDate = (description: string) =>
  Nullable(Type.String({ description: `${description}, YYYY-MM-DD` }));

/** Where EDGAR keeps each company's filing folders (`<CIK>/<accession number without dashes>/`). */
export const EDGAR_ARCHIVES_URL = 'https://www.sec.gov/Archives/edgar/data/';

/** The filing's index page on EDGAR (the canonical address, whichever mirror it was read from). */
export function edgarFilingUrl(cik: string | null, accessionNumber: string): string {
  const folder = accessionNumber.replace(/-/g, '');
  const company = cik ? String(Number(cik)) : accessionNumber.slice(0, 10).replace(/^0+/, '');
  return `${EDGAR_ARCHIVES_URL}${company}/${folder}/`;
}
