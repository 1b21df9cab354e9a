// GET /bulk/trades: the whole trade history in one download (docs/api.md, "Bulk history").
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../../errors.js';
import {
  BULK_COLUMNS,
  BULK_FORMATS,
  type BulkFormat,
  bulkFileContent,
  currentBulkFile,
} from '../../../services/bulk.js';
import type { BulkExportMeta } from '../../../storage/repositories/bulk-exports.js';
import { negotiate } from '../../plugins/csv.js';
import { settleCharge } from '../../plugins/metering.js';
import { errorResponses, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const CSV = 'text/csv';
const NDJSON = 'application/x-ndjson';

/** The stored bytes go out in pieces of this size. */
const CHUNK_BYTES = 64 * 1024;

const Query = Type.Object({
  format: Type.Optional(
    StringEnum(['csv', 'ndjson'] as const, {
      description: 'csv (default) or ndjson (one Trade JSON object per line); without it, Accept decides',
    }),
  ),
});

/** The format `format` or the Accept header asks for; a 406 when Accept allows neither. */
function formatOf(format: BulkFormat | undefined, accept: string | undefined): BulkFormat {
  if (format) return format;
  const chosen = negotiate(accept, [CSV, NDJSON]);
  if (chosen === undefined)
    throw new ApiError(
      'not_acceptable',
      `GET /bulk/trades answers ${CSV} or ${NDJSON} (or send format=csv|ndjson)`,
      {
        available: [CSV, NDJSON],
      },
    );
  return chosen === NDJSON ? 'ndjson' : 'csv';
}

/** Whether Accept-Encoding takes gzip (q > 0, by name or `*`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name.trim() === 'gzip' || name.trim() === 'x-gzip') gzip = weight;
    if (name.trim() === '*') any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}

/** If-None-Match names the tag, or (without If-None-Match) If-Modified-Since is not before the file. */
function notModified(request: FastifyRequest, etag: string, generatedAt: string): boolean {
  const match = request.headers['if-none-match'];
  if (match !== undefined)
    return match.split(',').some((tag) => [etag, `W/${etag}`, '*'].includes(tag.trim()));
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Math.floor(Date.parse(generatedAt) / 1000) * 1000 <= since;
}

function chunks(content: Buffer): Readable {
  function* pieces() {
    for (let start = 0; start < content.length; start += CHUNK_BYTES)
      yield content.subarray(start, start + CHUNK_BYTES);
  }
  return Readable.from(pieces());
}

function describe(meta: BulkExportMeta, reply: FastifyReply, etag: string): void {
  reply.header('etag', etag);
  reply.header('last-modified', new Date(meta.generated_at).toUTCString());
  reply.header('vary', 'Accept, Accept-Encoding');
  reply.header('x-bulk-rows', String(meta.rows));
}

export function bulkTradesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/bulk/trades',
    {
      schema: {
        operationId: 'bulkTrades',
        tags: ['trades'],
        summary: 'Every trade with every field, in one gzip download (CSV or NDJSON)',
        description:
          'The whole trade history: every current trade (amendments applied; trades with `quality_flags` that leave them ' +
          'out of the default /trades listing included, their flags in the row) with all its fields, market fields, ' +
          'returns, alphas and scores included, as CSV (the Trade fields as columns, formulas neutralised as in every CSV ' +
          'answer) or NDJSON (one Trade object per line), oldest id first. The file is rebuilt after every ingest run ' +
          'and enrichment job (and when this call finds the trades changed otherwise); `days_held` is as of Last-Modified. ' +
          'Sent gzip-encoded (`Content-Encoding: gzip`) to clients that accept gzip, else decoded as it streams. ' +
          '`ETag` and `Last-Modified` say which build it is: send them back in `If-None-Match` or `If-Modified-Since` ' +
          'and an unchanged file answers 304 and costs nothing. A flat price per download, Pro and Max.',
        querystring: Query,
        response: {
          200: {
            description: `The file. CSV columns (NDJSON keys) in order: ${BULK_COLUMNS.join(', ')}`,
            content: {
              [CSV]: { schema: { type: 'string' } },
              [NDJSON]: { schema: { type: 'string' } },
            },
          },
          304: {
            description: 'Not modified: your copy is the current build; nothing is charged',
            type: 'null',
          },
          ...errorResponses(406, 422),
        },
      },
    },
    async (request, reply) => {
      // The answer is a stream or nothing, which the schema-typed reply does not describe.
      const answer = reply as FastifyReply;
      const format = formatOf(request.query.format, request.headers.accept);
      const gzip = acceptsGzip(request.headers['accept-encoding']);
      const stored = await currentBulkFile(deps.db, format, deps.clock());
      const tagOf = (meta: BulkExportMeta) => (gzip ? meta.etag : `${meta.etag.slice(0, -1)}-plain"`);
      if (notModified(request, tagOf(stored), stored.generated_at)) {
        describe(stored, answer, tagOf(stored));
        return answer.code(304).send();
      }
      const { meta, content } = await bulkFileContent(deps.db, stored);
      // A streamed answer is charged before its first byte (the flat price of the route).
      await settleCharge(deps, request, reply, null);
      describe(meta, answer, tagOf(meta));
      answer.type(BULK_FORMATS[format].contentType);
      answer.header(
        'content-disposition',
        `attachment; filename="dcledger-trades-${meta.generated_at.slice(0, 10)}.${BULK_FORMATS[format].extension}"`,
      );
      if (gzip) {
        answer.header('content-encoding', 'gzip');
        answer.header('content-length', String(content.length));
        return answer.send(chunks(content));
      }
      return answer.send(chunks(content).pipe(createGunzip()));
    },
  );
}
