// The tables of the documentation that restate code: rendered from the code's own tables (the price
// table, the plans, the public routes, the webhook event catalog) into marked regions of the
// Markdown files, so the docs cannot drift from what the service does. `npm run docs:generate`
// rewrites the regions; test/generated-docs.test.ts fails when one is stale.
//
// A region is written anywhere in docs/*.md or README.md as
//   <!-- generated:NAME -->
//   ...
//   <!-- /generated:NAME -->
// and NAME must be one of DOC_TABLES. A new route in PRICE_TABLE or a new event in the catalog
// reaches every document that holds the region on the next run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CREDITS_PER_DOLLAR,
  DEFAULT_DAILY_CAP,
  PLAN_GATED_FIELDS,
  PLAN_TERMS,
  SIGN_UP_CREDITS,
  TOPUP_LIFT_DAYS,
  TOPUP_LIFTS,
} from '../src/accounts/plans.js';
import {
  openApiPath,
  PRICE_TABLE,
  type Price,
  PUBLIC_ROUTES,
  TIER_PLAN,
  type Tier,
} from '../src/accounts/price-table.js';
import { PLANS } from '../src/domain/plans.js';
import { catalogEvents } from '../src/webhooks/event-catalog.js';

const count = (value: number) => value.toLocaleString('en-US');
const code = (value: string) => `\`${value}\``;
/** Pipes inside a table cell would split it. */
const cell = (value: string) => value.replace(/\|/g, '\\|');

const TIERS = Object.keys(TIER_PLAN) as Tier[];

function endpoint(key: string): string {
  const space = key.indexOf(' ');
  return code(`${key.slice(0, space)} ${openApiPath(key.slice(space + 1))}`);
}

function rowsCounted(price: Price): string {
  if (price.rows === 'none') return '–';
  return price.rowsField ? `each of ${code(price.rowsField)}` : 'each element of the answer';
}

function perRow(price: Price, credits: number): string {
  return price.rows === 'none' ? '–' : count(credits);
}

function pricesTable(): string {
  const lines = [
    '| endpoint | tier | plan needed | base | per row | per executive-branch row | rows counted |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [key, price] of Object.entries(PRICE_TABLE)) {
    lines.push(
      `| ${endpoint(key)} | ${price.tier} | ${code(TIER_PLAN[price.tier])} | ${count(price.base)} | ${perRow(price, price.perRow)} | ${perRow(price, price.perExecutiveRow)} | ${rowsCounted(price)} |`,
    );
  }
  return lines.join('\n');
}

function plansTable(): string {
  const lines = [
    '| plan | monthly credits | requests/min | free trial | reaches tiers |',
    '|---|---|---|---|---|',
  ];
  for (const plan of PLANS) {
    const terms = PLAN_TERMS[plan];
    const reaches = TIERS.filter((tier) => PLAN_TERMS[TIER_PLAN[tier]].rank <= terms.rank);
    const trial = terms.trialDays > 0 ? `${terms.trialDays} days unless started \`--paid\`` : '–';
    lines.push(
      `| ${code(plan)} | ${count(terms.monthlyCredits)} | ${count(terms.requestsPerMinute)} | ${trial} | ${reaches.join(', ')} |`,
    );
  }
  return lines.join('\n');
}

function limitsList(): string {
  const lifts = TOPUP_LIFTS.map(
    ([dollars, perMinute]) => `$${count(dollars)} or more → at least ${count(perMinute)} requests/min`,
  ).join('; ');
  return [
    `- Sign-up credits: ${count(SIGN_UP_CREDITS)} (\`SIGN_UP_CREDITS\`).`,
    `- Default daily spend cap of a key: ${count(DEFAULT_DAILY_CAP)} credits (\`DEFAULT_DAILY_CAP\`).`,
    `- Top-ups: ${count(CREDITS_PER_DOLLAR)} credits per dollar (\`CREDITS_PER_DOLLAR\`).`,
    `- Top-ups paid in the last ${TOPUP_LIFT_DAYS} days lift the rate limit (\`TOPUP_LIFTS\`): ${lifts}.`,
    `- Plan-gated fields (null without a plan, \`PLAN_GATED_FIELDS\`): ${PLAN_GATED_FIELDS.map(code).join(', ')}.`,
  ].join('\n');
}

function publicRoutesList(): string {
  return PUBLIC_ROUTES.map((route) =>
    route.endsWith('*') ? `- ${code(route.slice(0, -1))} and every path below it` : `- ${code(route)}`,
  ).join('\n');
}

function eventsTable(): string {
  const lines = ['| event | fires when | data | filters |', '|---|---|---|---|'];
  for (const event of catalogEvents()) {
    const properties = Object.keys((event.payload_schema as { properties?: object }).properties ?? {});
    // A REST resource is named by its route; the other payloads are listed field by field.
    const data = event.resource.includes('GET /')
      ? event.resource
      : `${event.resource}: ${properties.map(code).join(', ')}`;
    const filters = event.filters.map((filter) => `${filter.name} (${filter.matches})`).join('; ');
    lines.push(`| ${code(event.event)} | ${cell(event.fires_when)} | ${cell(data)} | ${cell(filters)} |`);
  }
  return lines.join('\n');
}

/** Every generated region, by name. */
export const DOC_TABLES: Record<string, () => string> = {
  prices: pricesTable,
  plans: plansTable,
  limits: limitsList,
  'public-routes': publicRoutesList,
  events: eventsTable,
};

const REGION = /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g;
const OPENING = /<!-- generated:([a-z-]+) -->/g;

/** The names of the regions a document holds. */
export function regionsOf(text: string): string[] {
  return [...text.matchAll(OPENING)].map((match) => match[1] ?? '');
}

/** The document with every region rendered afresh; throws on an unknown or unclosed region. */
export function refreshDocument(text: string, tables: Record<string, () => string> = DOC_TABLES): string {
  const opened = regionsOf(text);
  const refreshed = text.replace(REGION, (_whole, name: string) => {
    const render = tables[name];
    if (!render)
      throw new Error(`unknown generated region "${name}" (known: ${Object.keys(tables).join(', ')})`);
    return `<!-- generated:${name} -->\n${render()}\n<!-- /generated:${name} -->`;
  });
  const closed = [...text.matchAll(REGION)].length;
  if (closed !== opened.length) throw new Error(`a generated region is not closed (${opened.join(', ')})`);
  return refreshed;
}

/** The Markdown files that may hold regions, relative to the repository root. */
export function documentFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join('docs', name));
  return ['README.md', ...docs];
}

export interface DocumentState {
  file: string;
  current: string;
  refreshed: string;
}

export function documentStates(root: string): DocumentState[] {
  return documentFiles(root).map((file) => {
    const current = readFileSync(join(root, file), 'utf8');
    return { file, current, refreshed: refreshDocument(current) };
  });
}
