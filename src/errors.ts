// The one error type of the service. Services throw it; the HTTP layer maps its code to a status
// in one table (STATUS_OF below) and answers `{ detail, request_id, code }`, where `code` is the
// ErrorCode: the machine-readable name a client branches on (as unkey and Stripe do).

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'not_acceptable'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'payload_too_large'
  | 'uri_too_long'
  | 'unsupported_media_type'
  | 'headers_too_large'
  | 'request_timeout'
  | 'internal'
  | 'upstream'
  | 'unavailable';

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  /** The Accept header names no type the endpoint answers. */
  not_acceptable: 406,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  headers_too_large: 431,
  /** The request's headers or body did not arrive in time (Node's headersTimeout or requestTimeout). */
  request_timeout: 408,
  internal: 500,
  upstream: 502,
  /** A shared dependency (the rate-limit store) is unreachable; the call may be retried. */
  unavailable: 503,
};

/** The code of an HTTP status the framework (not a service) chose; unlisted 4xx read as bad_request. */
export function codeOfStatus(status: number): ErrorCode {
  for (const [code, mapped] of Object.entries(STATUS_OF)) {
    if (mapped === status) return code as ErrorCode;
  }
  return status < 500 ? 'bad_request' : 'internal';
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** Extra fields for the error body (e.g. credits_needed), never secrets. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const notFound = (detail: string) => new ApiError('not_found', detail);
export const badRequest = (detail: string) => new ApiError('bad_request', detail);
/** A parameter value that fails validation; the detail names the field. */
export const invalidField = (field: string, problem: string) =>
  new ApiError('unprocessable', `${field}: ${problem}`, { field });

/** How many characters of a caller's value an error detail quotes. */
export const QUOTED_PREFIX = 40;

/**
 * A caller's value as an error detail quotes it: in double quotes, JSON-escaped, and cut to its first
 * QUOTED_PREFIX characters (then "…") so a detail never echoes a long input back. Every detail that
 * embeds caller text goes through here.
 */
export function quoted(value: unknown): string {
  const text = String(value);
  // Cut by code points so a surrogate pair is never split; only the head needs to be spread.
  const head = Array.from(text.slice(0, QUOTED_PREFIX * 2)).slice(0, QUOTED_PREFIX);
  const cut = head.join('');
  const escaped = JSON.stringify(cut).slice(1, -1);
  return cut.length < text.length ? `"${escaped}…"` : `"${escaped}"`;
}
