import type { RouteFolder } from '../../route-folders.js';
import { askChatRoute } from './ask.js';
import { converseChatRoute } from './converse.js';

export const routes: RouteFolder = {
  order: 270,
  register(app, { deps, catalog }) {
    askChatRoute(app, deps, catalog);
    converseChatRoute(app, deps, catalog);
  },
};
