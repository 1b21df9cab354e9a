// GET /ui/review/:id/crop.png: the picture of a waiting row on its page, for the row's review page.
import { ApiError } from '../../../errors.js';
import { ReviewCrops } from '../../../services/review-queue.js';
import type { App, AppDeps } from '../../types.js';
import { pageSchema } from './schemas.js';

export function reviewCropRoute(app: App, deps: AppDeps): void {
  // Drawn on a thread of their own and kept beside the archive (services/review-crops.ts).
  const crops = deps.documentArchiveDir ? new ReviewCrops(deps.documentArchiveDir) : undefined;
  if (crops) app.addHook('onClose', () => crops.close());
  app.get(
    '/ui/review/:id/crop.png',
    { schema: pageSchema('GET /ui/review/:id/crop.png') },
    async (request, reply) => {
      if (!request.session) throw new ApiError('unauthorized', 'Sign in first: /ui/login');
      if (!request.session.isOperator) throw new ApiError('forbidden', 'Only operators see the review queue');
      const png = crops ? await crops.png(deps.db, request.params.id) : null;
      if (!png)
        throw new ApiError(
          'not_found',
          `No picture of review item ${request.params.id}: the item or its document is not in the archive`,
        );
      return reply.type('image/png').send(png);
    },
  );
}
