// What every page and form of the account area accepts: one TypeBox schema per route, so a
// repeated parameter (`?token=a&token=b` arrives as an array), an over-long value or a path id that
// is not a number is refused with a clear 4xx before any handler runs. Every /ui route takes its
// schema from here with pageSchema(), and the fuzz gate (src/http/fuzz.test.ts) generates its
// queries and form bodies from this table. Unknown parameters are ignored, as a page should.
import { Type } from 'typebox';
import { INTEGER_RANGE } from '../../plugins/validation.js';
import { StringEnum } from '../../schemas/common.js';

const text = (maxLength: number, description?: string) =>
  Type.Optional(Type.String({ maxLength, ...(description ? { description } : {}) }));

const Csrf = text(200, 'the CSRF token of the page the form came from');
const Token = text(200, 'a token from a mailed link');
const Email = text(320);
const Password = text(1024);
const Id = Type.Integer({ minimum: 1, maximum: INTEGER_RANGE.max });

const Empty = Type.Object({});
const TokenQuery = Type.Object({ token: Token });
/** A row's fields as the review queue's forms send them (a row corrected, a row added). */
const ROW_FIELDS = {
  transaction_date: text(40),
  notification_date: text(40),
  owner: text(40),
  trade_type: text(40),
  amount_range: text(80),
  asset_description: text(500),
  ticker: text(20),
  comment: text(1000),
};

/** The review queue's pages name the row just decided, to say what became of it. */
const DecidedQuery = Type.Object({ decided: Type.Optional(Id) });

/** Member rankings the leaderboard page offers: /politicians's `sort_by` values. */
export const LEADERBOARD_SORTS = [
  'avg_alpha_90d',
  'avg_alpha_30d',
  'win_rate',
  'portfolio_return',
  'sharpe_ratio',
  'trade_count',
] as const;

export const UI_SCHEMAS = {
  'GET /': { querystring: Empty },
  'GET /status': { querystring: Empty },
  'GET /ui/terms': { querystring: Empty },
  'GET /ui/signup': { querystring: Empty },
  'POST /ui/signup': { body: Type.Object({ _csrf: Csrf, email: Email, password: Password }) },
  'GET /ui/signup/confirm': { querystring: TokenQuery },
  'POST /ui/signup/confirm': { querystring: TokenQuery, body: Type.Object({ _csrf: Csrf, token: Token }) },
  'GET /ui/login': { querystring: Empty },
  'POST /ui/login': { body: Type.Object({ _csrf: Csrf, email: Email, password: Password }) },
  'POST /ui/logout': { body: Type.Object({ _csrf: Csrf }) },
  'GET /ui/verify-email': { querystring: TokenQuery },
  'POST /ui/verify-email': { body: Type.Object({ _csrf: Csrf, token: Token }) },
  'GET /ui/reset-password': { querystring: TokenQuery },
  'POST /ui/reset-password': { querystring: TokenQuery, body: Type.Object({ _csrf: Csrf, email: Email }) },
  'POST /ui/reset-password/confirm': {
    querystring: TokenQuery,
    body: Type.Object({ _csrf: Csrf, token: Token, password: Password }),
  },
  'GET /ui/keys': { querystring: Empty },
  'POST /ui/keys': { body: Type.Object({ _csrf: Csrf, name: text(200), daily_cap: text(20) }) },
  'POST /ui/keys/:id/revoke': { params: Type.Object({ id: Id }), body: Type.Object({ _csrf: Csrf }) },
  'POST /ui/keys/:id/rotate': { params: Type.Object({ id: Id }), body: Type.Object({ _csrf: Csrf }) },
  'GET /ui/credits': { querystring: Empty },
  'POST /ui/plan': { body: Type.Object({ _csrf: Csrf, plan: text(20) }) },
  'POST /ui/topups': { body: Type.Object({ _csrf: Csrf, amount_usd: text(20) }) },
  'GET /ui/usage': { querystring: Empty },
  'GET /ui/webhooks': { querystring: Empty },
  'POST /ui/webhooks': {
    body: Type.Object({
      _csrf: Csrf,
      key_id: text(12),
      alert_type: text(80),
      webhook_url: text(2048),
      filter_value: text(200),
    }),
  },
  'POST /ui/webhooks/:key/:id/:action': {
    params: Type.Object({
      key: Id,
      id: Id,
      action: StringEnum(['test', 'rotate', 'delete'] as const),
    }),
    body: Type.Object({ _csrf: Csrf }),
  },
  'GET /ui/explore': { querystring: Empty },
  'GET /ui/explore/member': {
    querystring: Type.Object({ id: text(120, 'a member id or slug') }),
  },
  'GET /ui/explore/ticker': { querystring: Type.Object({ symbol: text(20) }) },
  'GET /ui/explore/leaderboard': {
    querystring: Type.Object({
      min_trades: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
      sort_by: Type.Optional(StringEnum(LEADERBOARD_SORTS)),
      chamber: Type.Optional(StringEnum(['house', 'senate', 'executive'] as const)),
    }),
  },
  'GET /ui/admin': { querystring: Empty },
  'GET /ui/review': { querystring: DecidedQuery },
  'GET /ui/review/:id': { params: Type.Object({ id: Id }), querystring: DecidedQuery },
  'GET /ui/review/:id/crop.png': { params: Type.Object({ id: Id }), querystring: Empty },
  'POST /ui/review/:id': {
    params: Type.Object({ id: Id }),
    body: Type.Object({
      _csrf: Csrf,
      action: Type.Optional(StringEnum(['correct', 'accept', 'reject'] as const)),
      ...ROW_FIELDS,
    }),
  },
  'GET /ui/review/filings/:id': { params: Type.Object({ id: Id }), querystring: DecidedQuery },
  'POST /ui/review/filings/:id': {
    params: Type.Object({ id: Id }),
    body: Type.Object({
      _csrf: Csrf,
      action: Type.Optional(StringEnum(['add', 'settle'] as const)),
      page: text(6),
      ...ROW_FIELDS,
    }),
  },
  'GET /ui/mailbox': { querystring: TokenQuery },
} as const;

export type UiRoute = keyof typeof UI_SCHEMAS;

/** The route's schema, hidden from /openapi.json (the pages are for people, not API clients). */
export function pageSchema<K extends UiRoute>(key: K): { hide: true } & (typeof UI_SCHEMAS)[K] {
  return { hide: true, ...UI_SCHEMAS[key] };
}
