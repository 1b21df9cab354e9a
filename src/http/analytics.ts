// How a route hands a heavy analytics call to the runner (the worker-thread pool `serve` starts,
// or the request's own thread when the app was built without one), under the caller's key.
import type { FastifyRequest } from 'fastify';
import {
  type AnalyticsTaskArgs,
  type AnalyticsTaskName,
  type AnalyticsTaskResult,
  inProcessAnalytics,
} from '../services/analytics-tasks.js';
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
