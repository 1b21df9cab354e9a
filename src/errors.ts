// The one error type of the service. Services throw it; the HTTP layer maps its code to a status
// in one table (http/plugins/errors.ts) and answers `{ detail, request_id }`.

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'internal'
  | 'upstream';

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  upstream: 502,
};

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
