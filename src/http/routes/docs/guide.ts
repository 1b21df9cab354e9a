// GET /docs/guides/{name}: one guide rendered from its Markdown.
import { readFileSync } from 'node:fs';
import { notFound, quoted } from '../../../errors.js';
import type { App } from '../../types.js';
import { guidePage, listGuides, ROOT, titleOf } from './guides.js';
import { GUIDES_PATH, renderMarkdown } from './render.js';

export function guideRoute(app: App, root: string = ROOT): void {
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
