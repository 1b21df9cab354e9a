// Every error leaves as `{ detail, request_id, code }` with the status its code maps to (the one
// table is STATUS_OF in src/errors.ts), including the framework's own refusals: bad
// percent-encoding, over-long paths, over-large bodies and headers, malformed requests. Validation
// errors name the parameter; no answer echoes the raw path, header or body; unexpected errors
// are logged and never leak internals.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ApiError, codeOfStatus, type ErrorCode, STATUS_OF } from '../../errors.js';
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

/** Longest request target (path and query) served; longer ones answer 414. */
export const MAX_URL_LENGTH = 8192;

/** What the framework's own refusals say: fixed sentences, so nothing the client sent is echoed. */
const FRAMEWORK_DETAIL: Partial<Record<ErrorCode, string>> = {
  bad_request: 'The request is malformed (bad percent-encoding, header, body or JSON)',
  not_found: 'No endpoint matches this method and path; the list is at /openapi.json',
  payload_too_large: 'The request body is larger than this service accepts',
  uri_too_long: `The request path and query are longer than ${MAX_URL_LENGTH} characters`,
  unsupported_media_type: 'Unsupported Content-Type; send application/json',
  headers_too_large: 'The request headers are larger than this service accepts',
  request_timeout: 'The request did not arrive in time; send it again',
};

function frameworkDetail(code: ErrorCode): string {
  return FRAMEWORK_DETAIL[code] ?? 'The request was refused';
}

function describeValidation(
  issue: AjvIssue,
  context: string,
): { code: ErrorCode; field: string; detail: string } {
  const location = LOCATION[context] ?? 'parameter';
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required') {
    const field = [path, String(issue.params.missingProperty ?? '')].filter(Boolean).join('.');
    return { code: 'bad_request', field, detail: `${location} '${field}' is required` };
  }
  const field = path || context;
  let problem = issue.message ?? 'is invalid';
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
    problem = `must be one of ${issue.params.allowedValues.join(', ')}`;
  }
  return { code: 'unprocessable', field, detail: `${location} '${field}' ${problem}` };
}

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  code: ErrorCode,
  detail: string,
  extra: Record<string, unknown> = {},
) {
  return reply
    .code(STATUS_OF[code])
    .type('application/json; charset=utf-8')
    .send({ ...extra, detail, request_id: request.id, code });
}

export function registerErrorHandling(app: App): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return send(reply, request, error.code, error.detail, error.extra);
    }
    const validation = (error as FastifyError).validation as AjvIssue[] | undefined;
    if (validation && validation.length > 0) {
      const issue = validation[0] as AjvIssue;
      const described = describeValidation(issue, (error as FastifyError).validationContext ?? 'querystring');
      return send(reply, request, described.code, described.detail, { field: described.field });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = codeOfStatus(status);
      return send(reply, request, code, frameworkDetail(code));
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, request, 'internal', 'Internal server error; retry with exponential backoff');
  });

  app.setNotFoundHandler((request, reply) => send(reply, request, 'not_found', frameworkDetail('not_found')));

  // Synchronous: every request runs it.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.length > MAX_URL_LENGTH)
      return done(new ApiError('uri_too_long', frameworkDetail('uri_too_long')));
    done();
  });
}

/** Node's client errors that are not a malformed request: the reason phrase of each answer. */
const CLIENT_ERROR_CODES: Record<string, { code: ErrorCode; reason: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', reason: 'Request Header Fields Too Large' },
  // headersTimeout or requestTimeout ran out: the caller was too slow, its request was not wrong.
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', reason: 'Request Timeout' },
};

/**
 * Answers Node's HTTP parser refusals (431 header overflow, 408 a request that did not arrive in
 * time, NUL/CR in headers, garbage) as JSON.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { code, reason } = CLIENT_ERROR_CODES[error.code ?? ''] ?? {
    code: 'bad_request',
    reason: 'Bad Request',
  };
  const status = STATUS_OF[code];
  const body = JSON.stringify({ detail: frameworkDetail(code), request_id: randomUUID(), code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify options that route the framework's early refusals through the same error body. */
export const frameworkErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors: (error, request, reply) => {
    const code = error.statusCode === 414 ? 'uri_too_long' : codeOfStatus(error.statusCode ?? 400);
    const detail = error.statusCode === 414 ? 'A path parameter is too long' : frameworkDetail(code);
    return send(reply, request, code, detail);
  },
  clientErrorHandler,
};
