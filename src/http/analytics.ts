// How a route hands a heavy analytics call to the runner (the worker-thread pool `serve` starts,
// or the request's own thread when the app was built without one), under the caller's key, and
// sends an answer whose list the database wrote as JSON text.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type AnalyticsTaskArgs,
  type AnalyticsTaskName,
  type AnalyticsTaskResult,
  inProcessAnalytics,
} from '../services/analytics-tasks.js';
import { sendDatabaseJson } from './plugins/metering.js';
import type { AppDeps } from './types.js';

export function runAnalytics<N extends AnalyticsTaskName>(
  deps: AppDeps,
  request: FastifyRequest,
  name: N,
  args: AnalyticsTaskArgs<N>,
): Promise<AnalyticsTaskResult<N>> {
  const runner = deps.analytics ?? inProcessAnalytics(deps.db);
  return runner.run(name, args, request.caller ? `key:${request.caller.keyId}` : null);
}

/**
 * Sends an analytics answer whose list `field` came as the JSON text the database wrote (`rows`
 * entries, none of them executive): the rest of the answer is serialized by the route's response
 * schema with the list empty, and the list's text takes the empty list's place. The list must be
 * the last field of the schema. Charged and paged as the object answer would be.
 */
export function sendAnswerWithJsonList(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: Record<string, unknown>,
  field: string,
  list: { json: string | Uint8Array; rows: number },
): Promise<FastifyReply> {
  const empty = String(reply.serialize({ ...answer, [field]: [] }));
  if (!empty.endsWith(`"${field}":[]}`))
    throw new Error(`${request.routeOptions.url}: ${field} is not the last field of the answer`);
  const head = empty.slice(0, -'[]}'.length);
  const json =
    typeof list.json === 'string'
      ? `${head}${list.json}}`
      : Buffer.concat([Buffer.from(head), list.json, Buffer.from('}')]);
  return sendDatabaseJson(deps, request, reply, async () => ({ json, rows: list.rows, executiveRows: 0 }));
}
