// GET /chad/chat?q=: the assistant answers one question. `Accept: text/event-stream` or `stream`
// answers as SSE.
import { Type } from 'typebox';
import type { AnswerTypesConfig } from '../../plugins/csv.js';
import type { RouteCatalog } from '../../route-catalog.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CHAT_DESCRIPTION, ChatAnswerSchema, chatResponder, StreamFlag, wantsStream } from './respond.js';

export function askChatRoute(app: App, deps: AppDeps, catalog: RouteCatalog): void {
  const respond = chatResponder(app, deps, catalog);
  app.get(
    '/chad/chat',
    {
      schema: {
        operationId: 'chatGet',
        tags: ['assistant'],
        summary: 'Ask the assistant one question',
        description: CHAT_DESCRIPTION,
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 4000, description: 'The question' }),
          stream: StreamFlag,
        }),
        response: { 200: ChatAnswerSchema, ...errorResponses(422) },
      },
      config: { answerTypes: ['application/json', 'text/event-stream'] } satisfies AnswerTypesConfig,
    },
    async (request, reply) =>
      respond(
        request,
        reply,
        [{ role: 'user', content: request.query.q }],
        wantsStream(request, request.query.stream),
      ),
  );
}
