import type { RouteCatalog } from '../../route-catalog.js';
import type { App, AppDeps } from '../../types.js';
import { askChatRoute } from './ask.js';
import { converseChatRoute } from './converse.js';

export function chatRoutes(app: App, deps: AppDeps, catalog: RouteCatalog): void {
  askChatRoute(app, deps, catalog);
  converseChatRoute(app, deps, catalog);
}
