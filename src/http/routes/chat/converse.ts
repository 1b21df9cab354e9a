// POST /chad/chat {messages}: the assistant continues a conversation. `Accept: text/event-stream`
// or `stream` answers as SSE.
import { Type } from 'typebox';
import type { RouteCatalog } from '../../route-catalog.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import {
  CHAT_DESCRIPTION,
  ChatAnswerSchema,
  chatResponder,
  Message,
  StreamFlag,
  wantsStream,
} from './respond.js';

export function converseChatRoute(app: App, deps: AppDeps, catalog: RouteCatalog): void {
  const respond = chatResponder(app, deps, catalog);
  app.post(
    '/chad/chat',
    {
      schema: {
        operationId: 'chatPost',
        tags: ['assistant'],
        summary: 'Continue a conversation with the assistant',
        description: CHAT_DESCRIPTION,
        body: Type.Object({
          messages: Type.Array(Message, { minItems: 1, maxItems: 40 }),
          stream: StreamFlag,
        }),
        response: { 200: ChatAnswerSchema, ...errorResponses(400, 422) },
      },
    },
    async (request, reply) =>
      respond(request, reply, request.body.messages, wantsStream(request, request.body.stream)),
  );
}
