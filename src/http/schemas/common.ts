// Schema building blocks shared by the route folders.
import { type Static, type TSchema, Type } from 'typebox';

import { StringEnum } from '../../resources/schema.js';

export { Nullable, StringEnum } from '../../resources/schema.js';

export const ErrorBody = Type.Object(
  {
    detail: Type.String({ description: 'What went wrong, in one sentence' }),
    request_id: Type.String({ description: 'Quote this when reporting a problem' }),
    code: Type.String({
      description:
        'Machine-readable error code: bad_request, unauthorized, payment_required, forbidden, not_found, not_acceptable, conflict, unprocessable, rate_limited, payload_too_large, uri_too_long, unsupported_media_type, headers_too_large, request_timeout, internal, upstream, unavailable',
    }),
  },
  { additionalProperties: true, description: 'Every error answer has this shape' },
);

/** The error answers every data route may give (the metering layer adds 401/402/403/429/503). */
export function errorResponses(...statuses: number[]) {
  const responses: Record<number, typeof ErrorBody> = {};
  for (const status of statuses) responses[status] = ErrorBody;
  return responses;
}

export const Limit = (defaultValue: number, maximum: number) =>
  Type.Integer({
    minimum: 1,
    maximum,
    default: defaultValue,
    description: `Page size, 1-${maximum} (default ${defaultValue})`,
  });

// Bounded as every request integer is (INTEGER_RANGE of plugins/validation.ts, which a larger
// offset would fail anyway); the published maximum says so.
/** The largest daily spend cap a key takes, in credits (the API's bodies and the keys page alike). */
export const MAX_KEY_DAILY_CAP = 1_000_000_000;

export const Offset = Type.Integer({
  minimum: 0,
  maximum: 2_147_483_647,
  default: 0,
  description: 'Rows to skip',
});

export const IsoDate = Type.String({
  format: 'date',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'YYYY-MM-DD',
});

export const PathId = Type.String({
  minLength: 1,
  maxLength: 120,
  description: 'Numeric politician id or slug (e.g. nancy-pelosi)',
});

/** Member ids or slugs, comma-separated: a member filter takes what the member's own path takes. */
export const MemberIds = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'Member id or slug (e.g. 1042 or nancy-pelosi), or a comma-separated list of them; an unknown slug is a 422',
});

export const SortDir = StringEnum(['asc', 'desc'] as const, { description: 'asc or desc (default desc)' });

/** A response schema with its example, as /openapi.json shows every answer. */
export function documented<T extends TSchema>(schema: T, example: Static<T>): T {
  return { ...schema, examples: [example] };
}
