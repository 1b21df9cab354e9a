// The calling key, which the metering plugin has authenticated before any alerts handler runs.
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../../../accounts/authentication.js';

export function callerOf(request: FastifyRequest): Caller {
  const { caller } = request;
  // Every alerts route except the two catalogs is priced, so metering always sets the caller.
  if (!caller) throw new Error(`metering did not authenticate ${request.routeId}`);
  return caller;
}
