// GET /docs/guides and GET /docs/guides/{name}: the Markdown guides of docs/ (and ACCURACY.md and
// BENCHMARKS.md from the root) as HTML pages in the pages' layout, beside the API reference at
// /docs (reference.ts). Public, like the reference (PUBLIC_ROUTES has `GET /docs*`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { notFound, quoted } from '../../../errors.js';
import { Html, page } from '../../pages/html.js';
import type { App } from '../../types.js';
import { escapeHtml, GUIDES_PATH, headingSlug, renderMarkdown } from './render.js';

/** The repository root: this file sits at src/http/routes/docs/ (dist/http/routes/docs/ when built). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

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
function titleOf(markdown: string, fallback: string): string {
  const heading = /^# (.+)$/m.exec(markdown);
  return heading?.[1]?.replace(/`/g, '').trim() ?? fallback;
}

/** A guide or the guide list in the pages' layout (stylesheet, icon, Content-Security-Policy). */
function guidePage(title: string, body: string): string {
  return page(
    { title, signedIn: false, current: GUIDES_PATH, headingId: headingSlug(title) },
    new Html(`<div class="guide">${body}</div>`),
  ).text;
}

export function guideRoutes(app: App, root: string = ROOT): void {
  app.get(GUIDES_PATH, { schema: { hide: true } }, async (_request, reply) => {
    const items = listGuides(root).map((guide) => {
      const title = titleOf(readFileSync(guide.file, 'utf8'), guide.name);
      return `<li><a href="${GUIDES_PATH}/${guide.name}">${escapeHtml(title)}</a> <code>${guide.name}</code></li>`;
    });
    const body = `<p>The API reference, generated from the route schemas, is at <a href="/docs">/docs</a>; the OpenAPI 3.1 document at <a href="/openapi.json">/openapi.json</a>. The guides:</p>
<ul>
${items.join('\n')}
</ul>`;
    return reply.type('text/html; charset=utf-8').send(guidePage('dcledger guides', body));
  });

  app.get<{ Params: { name: string } }>(
    `${GUIDES_PATH}/:name`,
    { schema: { hide: true } },
    async (request, reply) => {
      const guide = listGuides(root).find((candidate) => candidate.name === request.params.name);
      if (!guide)
        throw notFound(
          `no guide named ${quoted(request.params.name)}: the guides are listed at ${GUIDES_PATH}`,
        );
      const markdown = readFileSync(guide.file, 'utf8');
      // The guide's own first heading becomes the page's heading.
      const body = renderMarkdown(markdown.replace(/^# .+\n/m, ''));
      return reply.type('text/html; charset=utf-8').send(guidePage(titleOf(markdown, guide.name), body));
    },
  );
}
