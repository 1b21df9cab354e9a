// Every error leaves as `{ detail, request_id }` with the status its code maps to. Validation
// errors name the parameter; unexpected errors are logged and never leak internals.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, STATUS_OF } from '../../errors.js';
import type { App } from '../types.js';

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

const LOCATION: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'body field',
  headers: 'header',
};

function describeValidation(
  issue: AjvIssue,
  context: string,
): { status: number; field: string; detail: string } {
  const location = LOCATION[context] ?? 'parameter';
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required') {
    const field = [path, String(issue.params.missingProperty ?? '')].filter(Boolean).join('.');
    return { status: 400, field, detail: `${location} '${field}' is required` };
  }
  const field = path || context;
  let problem = issue.message ?? 'is invalid';
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
    problem = `must be one of ${issue.params.allowedValues.join(', ')}`;
  }
  return { status: 422, field, detail: `${location} '${field}' ${problem}` };
}

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  detail: string,
  extra: Record<string, unknown> = {},
) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ ...extra, detail, request_id: request.id });
}

export function registerErrorHandling(app: App): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return send(reply, request, STATUS_OF[error.code], error.detail, error.extra);
    }
    const validation = (error as FastifyError).validation as AjvIssue[] | undefined;
    if (validation && validation.length > 0) {
      const issue = validation[0] as AjvIssue;
      const described = describeValidation(issue, (error as FastifyError).validationContext ?? 'querystring');
      return send(reply, request, described.status, described.detail, { field: described.field });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) return send(reply, request, status, error.message);
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, request, 500, 'Internal server error; retry with exponential backoff');
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, request, 404, `No endpoint ${request.method} ${request.url.split('?')[0]}`),
  );
}
