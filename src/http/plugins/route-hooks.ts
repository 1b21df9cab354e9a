// Hooks that only some routes need are attached to those routes as they are registered (from an
// onRoute hook), not to the whole app: an app-wide hook runs on every request of every route, and
// each async hook costs a promise and a turn of the hook runner even when it returns at once. The
// hot list routes (GET /trades) pay only for what applies to them.
//
// Order: Fastify runs app-wide hooks of a kind first, then the route's own in the order they were
// added, and onRoute hooks run in the order their plugins registered them. A plugin that moves its
// hooks here keeps its place among the other route-level hooks (e.g. before @fastify/compress,
// which adds its onSend the same way, later).
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The per-route lifecycle hooks the plugins attach. */
export type RouteHookName =
  | 'preValidation'
  | 'preHandler'
  | 'preSerialization'
  | 'onSend'
  | 'onResponse'
  | 'onRequestAbort';

/** A synchronous onSend hook: it calls `done` with the (possibly replaced) payload. */
export type SyncOnSend = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
) => void;

/** The methods a route answers (route options give one or a list). */
export function routeMethods(route: { method: string | string[] }): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}

/** Appends `hook` to the route's own hooks of kind `name` (route options: absent, one or a list). */
export function addRouteHook(route: object, name: RouteHookName, hook: unknown): void {
  const options = route as Partial<Record<RouteHookName, unknown>>;
  const current = options[name];
  if (current === undefined || current === null) options[name] = [hook];
  else options[name] = Array.isArray(current) ? [...current, hook] : [current, hook];
}
