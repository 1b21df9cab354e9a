// Query parameters a route does not take are refused, not ignored: `/trades?tickers=NVDA` used to
// answer every ticker's trades (and charge for them). The names a route takes are read from its
// own query schema as it is registered (the CSV plugin's `format` included), so a new route or
// parameter is covered without a list to keep. The refusal is a 400 naming the parameter and the
// closest name the route takes; like every refused call it is charged nothing. The account area's
// pages and the API reference (/docs) are for browsers and keep their own query handling.
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { isSessionRoute, routeKey } from '../../accounts/price-table.js';
import { ApiError } from '../../errors.js';
import type { App } from '../types.js';
import { addRouteHook, routeMethods } from './route-hooks.js';

/** The query parameter names a route's schema declares. */
export function declaredQueryNames(schema: FastifySchema | undefined): string[] {
  const query = schema?.querystring as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(query?.properties ?? {});
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between two short names. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = d[i];
      if (row) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The known name closest to `name`, when one is close enough to be what was meant: within a third
 * of its length in edits (at least 2), or one name containing the other (`tickers`, `date` for
 * `date_from`), ignoring case, dashes and underscores.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const plain = (text: string) => text.toLowerCase().replace(/[-_]/g, '');
  const wanted = plain(name);
  let best: { name: string; score: number } | undefined;
  for (const candidate of known) {
    const other = plain(candidate);
    const distance = editDistance(wanted, other);
    const contained = wanted.length >= 3 && (other.includes(wanted) || wanted.includes(other));
    const limit = Math.max(2, Math.floor(Math.max(wanted.length, other.length) / 3));
    if (distance > limit && !contained) continue;
    const score = contained ? Math.min(distance, 1.5) : distance;
    if (!best || score < best.score) best = { name: candidate, score };
  }
  return best?.name;
}

/** The names in a raw query string (`a=1&b&c=2` -> a, b, c), decoded as URLSearchParams decodes them. */
function queryNames(url: string): string[] {
  const mark = url.indexOf('?');
  if (mark === -1 || mark === url.length - 1) return [];
  return [...new Set(new URLSearchParams(url.slice(mark + 1)).keys())];
}

/** The 400 for a parameter the route does not take. */
export function unknownParameter(route: string, name: string, known: readonly string[]): ApiError {
  const suggestion = closestName(name, known);
  const shown = JSON.stringify(name.slice(0, 60));
  const detail =
    known.length === 0
      ? `Unknown query parameter ${shown}: ${route} takes no query parameters`
      : `Unknown query parameter ${shown}${suggestion ? `; did you mean \`${suggestion}\`?` : '.'} ${route} takes: ${known.join(', ')}`;
  return new ApiError('bad_request', detail, {
    field: name.slice(0, 60),
    ...(suggestion ? { did_you_mean: suggestion } : {}),
    known_parameters: [...known],
  });
}

export function registerQueryNames(app: App): void {
  app.addHook('onRoute', (route) => {
    const methods = routeMethods(route).filter((method) => method !== 'HEAD' && method !== 'OPTIONS');
    const [method] = methods;
    if (method === undefined) return;
    const key = routeKey(method, route.url);
    if (isSessionRoute(key) || key.startsWith('GET /docs')) return;
    const known = declaredQueryNames(route.schema);
    const allowed = new Set(known);
    const label = `${methods.join('/')} ${route.url}`;
    addRouteHook(
      route,
      'preValidation',
      (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        const url = request.raw.url ?? '';
        if (!url.includes('?')) return done();
        const unknown = queryNames(url).find((name) => !allowed.has(name));
        done(unknown === undefined ? undefined : unknownParameter(label, unknown, known));
      },
    );
  });
}
