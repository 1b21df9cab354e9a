// POST /ui/logout: ends the session and goes back to the home page.
import { endSession, SESSION_COOKIE } from '../../../accounts/sessions.js';
import { clearSessionCookie } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { pageSchema } from './schemas.js';

export function logoutRoute(app: App, deps: AppDeps): void {
  app.post('/ui/logout', { schema: pageSchema('POST /ui/logout') }, async (request, reply) => {
    await endSession(deps.db, request.cookies[SESSION_COOKIE]);
    clearSessionCookie(reply, deps);
    return reply.redirect('/', 303);
  });
}
