import type { App, AppDeps } from '../../types.js';
import { suspiciousTimingRoute } from './suspicious-timing.js';

export function legislationRoutes(app: App, deps: AppDeps): void {
  suspiciousTimingRoute(app, deps);
}
