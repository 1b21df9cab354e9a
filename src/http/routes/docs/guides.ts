// GET /docs/guides and GET /docs/guides/{name}: the Markdown guides of docs/ (and ACCURACY.md and
// BENCHMARKS.md from the root) as HTML pages, beside the API reference that @fastify/swagger-ui
// serves at /docs. Public, like the reference (PUBLIC_ROUTES has `GET /docs*`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { notFound } from '../../../errors.js';
import type { App } from '../../types.js';
import { escapeHtml, GUIDES_PATH, htmlPage, renderMarkdown } from './render.js';

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

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // The pages run no script and load nothing but their own inline style.
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
};

export function guideRoutes(app: App, root: string = ROOT): void {
  app.get(GUIDES_PATH, { schema: { hide: true } }, async (_request, reply) => {
    const items = listGuides(root).map((guide) => {
      const title = titleOf(readFileSync(guide.file, 'utf8'), guide.name);
      return `<li><a href="${GUIDES_PATH}/${guide.name}">${escapeHtml(title)}</a> <code>${guide.name}</code></li>`;
    });
    const body = `<h1>dcledger guides</h1>
<p>The API reference, generated from the route schemas, is at <a href="/docs">/docs</a>; the OpenAPI 3.1 document at <a href="/openapi.json">/openapi.json</a>. The guides:</p>
<ul>
${items.join('\n')}
</ul>`;
    return reply.headers(HTML_HEADERS).send(htmlPage('Guides', body));
  });

  app.get<{ Params: { name: string } }>(
    `${GUIDES_PATH}/:name`,
    { schema: { hide: true } },
    async (request, reply) => {
      const guide = listGuides(root).find((candidate) => candidate.name === request.params.name);
      if (!guide)
        throw notFound(`no guide named "${request.params.name}": the guides are listed at ${GUIDES_PATH}`);
      const markdown = readFileSync(guide.file, 'utf8');
      return reply
        .headers(HTML_HEADERS)
        .send(htmlPage(titleOf(markdown, guide.name), renderMarkdown(markdown)));
    },
  );
}
