// GET /filings: every disclosure document and what became of it, so that no parse failure is
// silent.
import { Type } from 'typebox';
import { FILING_EXAMPLE, FilingSchema } from '../../../resources/filing.js';
import { listFilings, listFilingsJson } from '../../../services/filings.js';
import { sendDatabaseJsonOrObjects } from '../../plugins/metering.js';
import { errorResponses, IsoDate, Limit, Offset } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function listFilingsRoute(app: App, deps: AppDeps): void {
  app.get(
    '/filings',
    {
      schema: {
        operationId: 'listFilings',
        tags: ['filings'],
        summary: 'Disclosure documents with their parse status',
        description:
          'Newest filed first. Filters: `source` (house_clerk, senate_efd, oge, or house, senate, executive), `politician_id` ' +
          '(ids or slugs), `status` (parsed, needs_review, imported, pending, paper, needs_ocr, unsupported, failed), `date_from`/`date_to` on the filed date.',
        querystring: Type.Object({
          source: Type.Optional(Type.String({ maxLength: 100 })),
          politician_id: Type.Optional(
            Type.String({ maxLength: 500, description: 'Member ids or slugs, comma-separated' }),
          ),
          status: Type.Optional(Type.String({ maxLength: 200 })),
          date_from: Type.Optional({ ...IsoDate, description: 'First filed date' }),
          date_to: Type.Optional({ ...IsoDate, description: 'Last filed date' }),
          limit: Limit(25, 1000),
          offset: Offset,
        }),
        response: {
          200: Type.Array(FilingSchema, { examples: [[FILING_EXAMPLE]] }),
          ...errorResponses(404, 422),
        },
      },
    },
    // JSON answers: the page as the JSON text the database builds (as GET /trades sends its page).
    async (request, reply) =>
      sendDatabaseJsonOrObjects(
        deps,
        request,
        reply,
        () => listFilingsJson(deps.db, request.query),
        () => listFilings(deps.db, request.query),
      ),
  );
}
