// Reading EDGAR XML without caring about namespaces or the casing of element names: the 13D
// schema writes `issuerCIK` where the 13G schema writes `issuerCik`, and some files open with a
// blank line before `<?xml`. Every element is kept as a list so that one reader serves both the
// single and the repeated case.
import { XMLParser } from 'fast-xml-parser';

export type XmlNode = string | { [name: string]: unknown };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (_name, _path, _isLeaf, isAttribute) => !isAttribute,
});

export class XmlFormatError extends Error {}

/** The document element's children, parsed leniently (leading blank lines and BOM removed). */
export function parseXml(text: string): XmlNode {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  let parsed: unknown;
  try {
    parsed = parser.parse(trimmed, true);
  } catch (error) {
    throw new XmlFormatError(
      `not well-formed XML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!isRecord(parsed)) throw new XmlFormatError('empty XML document');
  return parsed;
}

function isRecord(value: unknown): value is { [name: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The children called `name` (any case, any namespace prefix already removed). */
export function children(node: unknown, name: string): XmlNode[] {
  if (!isRecord(node)) return [];
  const wanted = name.toLowerCase();
  const found: XmlNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_') || key.toLowerCase() !== wanted) continue;
    const list = Array.isArray(value) ? value : [value];
    for (const item of list) if (typeof item === 'string' || isRecord(item)) found.push(item);
  }
  return found;
}

/** Every node reached by following `names` from `node`. */
export function descend(node: unknown, ...names: string[]): XmlNode[] {
  let level: unknown[] = [node];
  for (const name of names) level = level.flatMap((item) => children(item, name));
  return level.filter((item): item is XmlNode => typeof item === 'string' || isRecord(item));
}

/** The text of an element (its `#text`), trimmed; null when blank. */
export function textOf(node: unknown): string | null {
  const raw = typeof node === 'string' ? node : isRecord(node) ? node['#text'] : undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const text = String(raw).replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/** The text at the end of a path, or null. */
export function textAt(node: unknown, ...names: string[]): string | null {
  for (const found of descend(node, ...names)) {
    const text = textOf(found);
    if (text !== null) return text;
  }
  return null;
}

/** An attribute's value. */
export function attribute(node: unknown, name: string): string | null {
  if (!isRecord(node)) return null;
  const value = node[`@_${name}`];
  return typeof value === 'string' ? value : null;
}

/** A number written in a filing ("1,234.50", "10000000.00"); null when absent or not a number. */
export function numberOf(text: string | null): number | null {
  if (text === null) return null;
  const cleaned = text.replace(/[,$\s]/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned)) return null;
  return Number(cleaned);
}

/** EDGAR writes flags as 1/0, true/false, Y/N. */
export function flagOf(text: string | null): boolean {
  if (text === null) return false;
  return /^(1|true|y|yes)$/i.test(text.trim());
}

/** MM/DD/YYYY (13D/G) or YYYY-MM-DD (ownership documents, possibly with a time zone) as YYYY-MM-DD. */
export function isoDateOf(text: string | null): string | null {
  if (text === null) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (us) return `${us[3]}-${(us[1] ?? '').padStart(2, '0')}-${(us[2] ?? '').padStart(2, '0')}`;
  return null;
}
