// A listing of OGE 278-T documents. OGE publishes no machine-readable index (its "Officials'
// Individual Disclosures Search Collection" is a Domino web app that hands out many documents only
// on request by e-mail), so the connector reads whatever listing the operator points it at:
//   - an HTML page whose links point at PDFs (a web server's directory listing, a Domino view, a
//     mirror), the link text naming the document; or
//   - JSON: `{ "documents": [ { "url", "name"?, "filer"?, "filed_date"? } ] }` or that array alone.
// Pure: text in, entries out.
import { decodeEntities, stripTags } from '../../../domain/asset.js';
import { parseDate } from '../../../domain/dates.js';

export interface OgeListingEntry {
  /** Absolute URL of the PDF. */
  url: string;
  /** The file name (URL-decoded last path segment), the document's id. */
  fileName: string;
  /** Link text or JSON name; what the listing calls the document. */
  label: string;
  /** Filer as the JSON listing names it; null for HTML listings. */
  filer: string | null;
  /** YYYY-MM-DD when the JSON listing gives it. */
  filedDate: string | null;
}

export class OgeListingError extends Error {}

export function parseOgeListing(text: string, listingUrl: string): OgeListingEntry[] {
  const body = text.replace(/^\uFEFF/, '').trim();
  const entries =
    body.startsWith('{') || body.startsWith('[') ? fromJson(body, listingUrl) : fromHtml(body, listingUrl);
  const seen = new Set<string>();
  return entries.filter((entry) => {
    if (seen.has(entry.fileName)) return false;
    seen.add(entry.fileName);
    return true;
  });
}

function fromHtml(html: string, listingUrl: string): OgeListingEntry[] {
  if (!/<a\b/i.test(html))
    throw new OgeListingError('the OGE listing is neither JSON nor an HTML page with links');
  const entries: OgeListingEntry[] = [];
  for (const match of html.matchAll(/<a\b[^>]*href\s*=\s*["']([^"']+)["'][^>]*>([\s\S]*?)<\/a>/gi)) {
    const href = decodeEntities(match[1] ?? '');
    const entry = entryFor(href, listingUrl);
    if (!entry) continue;
    const label = decodeEntities(stripTags(match[2] ?? ''))
      .replace(/\s+/g, ' ')
      .trim();
    entries.push({ ...entry, label: label || entry.fileName, filer: null, filedDate: null });
  }
  return entries;
}

function fromJson(text: string, listingUrl: string): OgeListingEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new OgeListingError(`the OGE listing is not valid JSON (${(error as Error).message})`);
  }
  const list = Array.isArray(json) ? json : (json as { documents?: unknown } | null)?.documents;
  if (!Array.isArray(list)) throw new OgeListingError('the OGE listing JSON has no "documents" array');
  const entries: OgeListingEntry[] = [];
  list.forEach((item: unknown, index) => {
    const record = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const href = typeof record.url === 'string' ? record.url : '';
    const entry = entryFor(href, listingUrl);
    if (!entry) throw new OgeListingError(`document ${index + 1} of the OGE listing has no PDF "url"`);
    const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string).trim() : '');
    entries.push({
      ...entry,
      label: text('name') || entry.fileName,
      filer: text('filer') || null,
      filedDate: parseDate(text('filed_date')),
    });
  });
  return entries;
}

function entryFor(href: string, listingUrl: string): { url: string; fileName: string } | null {
  let url: URL;
  try {
    url = new URL(href, listingUrl);
  } catch {
    return null;
  }
  if (!/\.pdf$/i.test(url.pathname)) return null;
  const segment = url.pathname.split('/').pop() ?? '';
  let fileName: string;
  try {
    fileName = decodeURIComponent(segment);
  } catch {
    fileName = segment;
  }
  return fileName === '' ? null : { url: url.toString(), fileName };
}
