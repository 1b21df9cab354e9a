// GET /quality: the latest data-quality audit (docs/data-quality.md), public like the probes. The
// audit is computed when an import, ingest or enrichment run ends (or by `dcledger audit`) and
// stored; this route serves the stored report, so it costs one read and may be cached.
import { Type } from 'typebox';
import { QUALITY_RULES } from '../../../domain/quality.js';
import { notFound } from '../../../errors.js';
import { latestQualityReport } from '../../../storage/repositories/quality.js';
import { OPERATIONS_TAG } from '../../route-catalog.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const Counts = Type.Record(Type.String(), Type.Integer());

const SourceAudit = Type.Object({
  source: Type.String({ description: 'house_clerk, senate_efd or oge' }),
  trades: Type.Integer({ description: 'Current trades (not superseded by an amendment)' }),
  excluded: Type.Integer({ description: 'Trades a flag leaves out of statistics, rankings and analytics' }),
  flags: Counts,
  identity_match: Counts,
  unresolved_identities: Type.Array(
    Type.Object({
      politician_id: Type.Integer(),
      name: Type.String(),
      slug: Type.String(),
      trades: Type.Integer(),
    }),
    { description: 'Filers no legislator matched by name and term, held on records of their own' },
  ),
  merged_duplicates: Type.Integer({
    description: "Rows of this source kept as another row's alias (the same trade from two sources or sets)",
  }),
  unparsed_option_descriptions: Type.Integer({
    description: 'Descriptions that state option terms the option fields do not carry',
  }),
  parse_statuses: Counts,
});

const QualityReportSchema = Type.Object(
  {
    computed_at: Type.String(),
    trigger: Type.String({ description: 'What ran the audit: import, ingest, enrich or audit' }),
    totals: Type.Object({
      trades: Type.Integer(),
      excluded: Type.Integer(),
      flagged: Type.Integer(),
      merged_duplicates: Type.Integer(),
      manual_links: Type.Integer({ description: 'Identity fixes made with `dcledger members link`' }),
    }),
    sources: Type.Array(SourceAudit),
    rules: Type.Array(
      Type.Object({ flag: Type.String(), excludes: Type.Boolean(), description: Type.String() }),
      { description: 'The rule table the flags come from' },
    ),
  },
  {
    description: 'The data-quality audit',
    examples: [
      {
        computed_at: '2026-11-28T06:00:00.000Z',
        trigger: 'ingest',
        totals: { trades: 31971, excluded: 41, flagged: 212, merged_duplicates: 1873, manual_links: 0 },
        sources: [
          {
            source: 'house_clerk',
            trades: 24110,
            excluded: 30,
            flags: { transaction_after_disclosure: 12 },
            identity_match: { bioguide: 23900, 'name+term': 210 },
            unresolved_identities: [],
            merged_duplicates: 1500,
            unparsed_option_descriptions: 3,
            parse_statuses: { parsed: 4200, needs_ocr: 310 },
          },
        ],
        rules: [
          {
            flag: 'transaction_after_disclosure',
            excludes: true,
            description:
              'The transaction date is after the date the trade was disclosed: one of the two dates is wrong.',
          },
        ],
      },
    ],
  },
);

const RULES = QUALITY_RULES.map(({ flag, excludes, description }) => ({ flag, excludes, description }));

export function getQualityRoute(app: App, deps: AppDeps): void {
  app.get(
    '/quality',
    {
      schema: {
        operationId: 'getQuality',
        tags: [OPERATIONS_TAG],
        summary: 'The data-quality audit: flags, identities, merged duplicates, parse statuses per source',
        description:
          'Public and cached: the audit stored when the last import, ingest or enrichment run ended (or `dcledger audit` ran). 404 before any run has made one.',
        response: { 200: QualityReportSchema, ...errorResponses(404) },
      },
    },
    async (_request, reply) => {
      const report = await latestQualityReport(deps.db);
      if (!report)
        throw notFound(
          'No quality audit yet: it is made when an import, ingest or enrichment run ends, or by `dcledger audit`',
        );
      reply.header('cache-control', 'public, max-age=300');
      return { ...report, rules: RULES };
    },
  );
}
