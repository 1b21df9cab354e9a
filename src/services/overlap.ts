// GET /overlap and the links of /conflict/{politician_id}: members' trades in companies that
// lobbied their committees, won contracts from agencies their committees oversee, or gave to their
// campaigns, within a window of the trade; each with the records that make the link.
import type { Kysely } from 'kysely';
import {
  DEFAULT_WINDOW_DAYS,
  hasLinks,
  LINK_KINDS,
  type LinkKind,
  linkKindsOf,
  linksWithin,
  MAX_WINDOW_DAYS,
  type TradeLinks,
  withUrls,
} from '../analytics/overlap.js';
import { matchOverlap } from '../analytics/overlap-match.js';
import { LinkTradeSchema, tradeSummary } from '../resources/links.js';
import { linkTradesByIds } from '../storage/repositories/analytics-links.js';
import { storedResultCurrent } from '../storage/repositories/stored-analytics.js';
import {
  countStoredOverlap,
  storedOverlapPage,
  storedOverlapPageJson,
} from '../storage/repositories/stored-overlap.js';
import type { TradeRangeFilter } from '../storage/repositories/trade-range.js';
import type { Database } from '../storage/schema.js';
import { inReadSnapshot } from '../storage/transaction.js';

export { DEFAULT_WINDOW_DAYS, LINK_KINDS, type LinkKind, linkKindsOf, MAX_WINDOW_DAYS, withUrls };

/** The analytics range /overlap takes (its member filter is politicianIds below). */
export type TradeRange = Pick<TradeRangeFilter, 'from' | 'to' | 'tickers' | 'sources' | 'actions'>;

export interface OverlapQuery extends TradeRange {
  windowDays: number;
  kinds: readonly LinkKind[];
  politicianIds?: readonly number[];
  limit: number;
  offset: number;
}

/** Keeps only the asked kinds of links. */
export function onlyKinds(links: TradeLinks, kinds: readonly LinkKind[]): TradeLinks {
  return {
    seats: links.seats,
    lobbying: kinds.includes('lobbying') ? links.lobbying : [],
    contracts: kinds.includes('contract') ? links.contracts : [],
    campaign: kinds.includes('campaign') ? links.campaign : [],
  };
}

/**
 * findOverlap's page as the JSON text of its hits' array (the same hits and fields), written by
 * the database from the stored hits, while they are current; otherwise as findOverlap's objects.
 */
export function findOverlapAnswer(
  db: Kysely<Database>,
  query: OverlapQuery,
): Promise<
  { total: number; hitsJson: string | Buffer; rows: number } | Awaited<ReturnType<typeof findOverlap>>
> {
  return inReadSnapshot(db, async (trx) => {
    if (query.windowDays > MAX_WINDOW_DAYS || !(await storedResultCurrent(trx, 'overlap')))
      return findOverlap(trx, query, { computed: true });
    const range = rangeOf(query);
    const total = await countStoredOverlap(trx, range, query);
    const written = await storedOverlapPageJson(trx, range, query, query, LINK_TRADE_FIELDS);
    return { total, hitsJson: written.json, rows: written.rows };
  });
}

const LINK_TRADE_FIELDS = Object.keys(LinkTradeSchema.properties);

function rangeOf(query: OverlapQuery): TradeRangeFilter {
  return {
    from: query.from,
    to: query.to,
    tickers: query.tickers,
    sources: query.sources,
    actions: query.actions,
    politicianIds: query.politicianIds,
  };
}

/**
 * The overlap hits of a query, a page of them with their trades. One read-only snapshot, so the
 * page's whole rows are those of the keys the hits were found on (a trade superseded meanwhile
 * would otherwise leave a hole in the page that `total` still counts). While the stored hits are
 * current the range is selected from them; otherwise (or with `computed`) its trades are matched now.
 */
export function findOverlap(db: Kysely<Database>, query: OverlapQuery, options: { computed?: boolean } = {}) {
  return inReadSnapshot(db, async (trx) => {
    const range = rangeOf(query);
    const page =
      !options.computed && query.windowDays <= MAX_WINDOW_DAYS && (await storedResultCurrent(trx, 'overlap'))
        ? await storedPage(trx, range, query)
        : await computedPage(trx, range, query);
    const rows = new Map(
      (
        await linkTradesByIds(
          trx,
          page.hits.map((hit) => hit.id),
        )
      ).map((row) => [row.id, row]),
    );
    return {
      total: page.total,
      hits: page.hits.flatMap(({ id, links }) => {
        const trade = rows.get(id);
        return trade
          ? [{ trade: tradeSummary(trade), link_kinds: linkKindsOf(links), ...withUrls(links) }]
          : [];
      }),
    };
  });
}

interface OverlapPage {
  total: number;
  hits: { id: number; links: TradeLinks }[];
}

/** Matches the range's trades now (any window). */
async function computedPage(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  query: OverlapQuery,
): Promise<OverlapPage> {
  const hits = (await matchOverlap(db, range, query.windowDays)).flatMap(({ trade, links }) => {
    const asked = onlyKinds(links, query.kinds);
    return hasLinks(asked) ? [{ id: trade.id, links: asked }] : [];
  });
  return { total: hits.length, hits: hits.slice(query.offset, query.offset + query.limit) };
}

/**
 * Selects the range's hits from the stored ones (every input unchanged since), which hold each
 * trade's links at the widest window: a trade is a hit at a narrower one when a kind asked has its
 * nearest record within it, and its records are those within it.
 */
async function storedPage(
  db: Kysely<Database>,
  range: TradeRangeFilter,
  query: OverlapQuery,
): Promise<OverlapPage> {
  const [total, rows] = await Promise.all([
    countStoredOverlap(db, range, query),
    storedOverlapPage(db, range, query, query),
  ]);
  return {
    total,
    hits: rows.map((row) => ({
      id: row.trade_id,
      // Written by the rebuild from linksOfTrade's own value.
      links: onlyKinds(linksWithin(JSON.parse(row.evidence) as TradeLinks, query.windowDays), query.kinds),
    })),
  };
}
