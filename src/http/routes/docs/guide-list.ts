// GET /docs/guides: the list of guides, each by its title, with links to the API reference.
import { readFileSync } from 'node:fs';
import type { App } from '../../types.js';
import { guidePage, listGuides, ROOT, titleOf } from './guides.js';
import { escapeHtml, GUIDES_PATH } from './render.js';

export function guideListRoute(app: App, root: string = ROOT): void {
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
}
