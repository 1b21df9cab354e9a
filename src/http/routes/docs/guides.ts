// The Markdown guides of docs/ (and ACCURACY.md and BENCHMARKS.md from the root) that GET
// /docs/guides lists (guide-list.ts) and GET /docs/guides/{name} shows (guide.ts), as HTML pages in
// the pages' layout beside the API reference at /docs (reference.ts). Public, like the reference
// (PUBLIC_ROUTES has `GET /docs*`).
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Html, page } from '../../pages/html.js';
import { GUIDES_PATH, headingSlug } from './render.js';

/** The repository root: this file sits at src/http/routes/docs/ (dist/http/routes/docs/ when built). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

export interface Guide {
  name: string;
  file: string;
}

/** Every guide by the name in its URL: docs/<name>.md, plus the two reports kept at the root. */
export function listGuides(root: string = ROOT): Guide[] {
  const docsDir = join(root, 'docs');
  const docs = existsSync(docsDir)
    ? readdirSync(docsDir)
        .filter((file) => /^[a-z0-9-]+\.md$/.test(file))
        .sort()
        .map((file) => ({ name: file.slice(0, -3), file: join(docsDir, file) }))
    : [];
  const reports = [
    { name: 'accuracy', file: join(root, 'ACCURACY.md') },
    { name: 'benchmarks', file: join(root, 'BENCHMARKS.md') },
  ].filter((guide) => existsSync(guide.file));
  return [...docs, ...reports];
}

/** The text of the first `# ` heading, else the name. */
export function titleOf(markdown: string, fallback: string): string {
  const heading = /^# (.+)$/m.exec(markdown);
  return heading?.[1]?.replace(/`/g, '').trim() ?? fallback;
}

/** A guide or the guide list in the pages' layout (stylesheet, icon, Content-Security-Policy). */
export function guidePage(title: string, body: string): string {
  return page(
    { title, signedIn: false, current: GUIDES_PATH, headingId: headingSlug(title) },
    new Html(`<div class="guide">${body}</div>`),
  ).text;
}
