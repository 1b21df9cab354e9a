// A few helpers for server-rendered pages: escaping by construction (every interpolated value is
// escaped unless it is already Html), one layout with a skip link, landmarks and a nav. Every page
// dcledger serves uses them (src/http/plugins/content-security.ts holds the policy they satisfy).
import { type AssetName, assetUrl } from './assets.js';

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

type Part = Html | string | number | null | undefined | boolean | ReadonlyArray<Html | string | number>;

function render(part: Part): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map((item) => render(item as Part)).join('');
  if (part === null || part === undefined || part === false || part === true) return '';
  return escapeHtml(part);
}

/** Tagged template: `html\`<p>${userText}</p>\`` escapes userText. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}

export interface PageOptions {
  title: string;
  signedIn: boolean;
  operator?: boolean;
  csrf?: string;
  /** The nav entry to mark as the current page. */
  current?: string;
  /** An id for the page's heading (a guide's anchor). */
  headingId?: string;
  /** Page scripts from ./assets (no inline script runs under the pages' Content-Security-Policy). */
  scripts?: readonly AssetName[];
}

function navLinks(options: PageOptions): Array<[string, string]> {
  const links: Array<[string, string]> = [['/', 'Home']];
  if (options.signedIn) {
    links.push(
      ['/ui/keys', 'API keys'],
      ['/ui/credits', 'Credits & plan'],
      ['/ui/usage', 'Usage'],
      ['/ui/webhooks', 'Webhooks'],
    );
  }
  links.push(['/ui/explore', 'Explore'], ['/docs', 'API reference'], ['/status', 'Status']);
  if (options.operator) links.push(['/ui/admin', 'Admin'], ['/ui/review', 'Review queue']);
  if (!options.signedIn) links.push(['/ui/login', 'Sign in'], ['/ui/signup', 'Sign up']);
  return links;
}

/**
 * The whole document around a page's body: stylesheet, icon and scripts from /ui/assets, a skip
 * link, a header with the main nav, the page heading, and a footer linking the terms of use.
 */
export function page(options: PageOptions, body: Html): Html {
  const nav = navLinks(options).map(
    ([href, label]) =>
      html`<li><a href="${href}"${href === options.current ? new Html(' aria-current="page"') : ''}>${label}</a></li>`,
  );
  const signOut =
    options.signedIn && options.csrf
      ? html`<form class="inline" method="post" action="/ui/logout"><input type="hidden" name="_csrf" value="${options.csrf}"><button class="secondary" type="submit">Sign out</button></form>`
      : '';
  // copy.js serves the copy buttons of secrets shown once, on whichever page shows one.
  const scripts = ['copy.js' as const, ...(options.scripts ?? [])].map(
    (name) => html`<script src="${assetUrl(name)}" defer></script>`,
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · dcledger</title>
<link rel="icon" href="${assetUrl('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('dcledger.css')}">
${scripts}
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header>
<a class="brand" href="/"><img src="${assetUrl('favicon.svg')}" alt="">dcledger</a>
<nav aria-label="Main"><ul>${nav}</ul></nav>
${signOut}
</header>
<main id="content">
<h1${options.headingId ? html` id="${options.headingId}"` : ''}>${options.title}</h1>
${body}
</main>
<footer><p>dcledger: US congressional and executive-branch stock-trade disclosures as a metered API. <a href="/ui/terms">Terms of use</a>.</p></footer>
</body>
</html>`;
}

/**
 * A table that scrolls sideways inside its own box on a narrow screen instead of widening the page;
 * the box is a named, focusable region so keyboard users can scroll it too.
 */
export function scrollTable(label: string, table: Html): Html {
  return html`<div class="table-scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

export function message(kind: 'notice' | 'error', text: string | undefined): Html | string {
  if (!text) return '';
  return kind === 'error'
    ? html`<div class="error" role="alert">${text}</div>`
    : html`<div class="notice" role="status">${text}</div>`;
}

/** A horizontal bar chart as inline SVG (no script): one bar per row, the value at its end. */
export function barChart(title: string, rows: ReadonlyArray<{ label: string; value: number }>): Html {
  if (rows.length === 0) return html`<p>No data yet.</p>`;
  const max = Math.max(1, ...rows.map((row) => row.value));
  const labelWidth = 190;
  const barWidth = 380;
  const rowHeight = 22;
  const height = rows.length * rowHeight + 8;
  const bars = rows.map((row, index) => {
    const y = index * rowHeight + 4;
    const width = Math.max(1, Math.round((row.value / max) * barWidth));
    return html`<g><text x="0" y="${y + 14}">${row.label.length > 30 ? `${row.label.slice(0, 29)}…` : row.label}</text><rect x="${labelWidth}" y="${y}" width="${width}" height="16" fill="#1d4ed8"></rect><text x="${labelWidth + width + 6}" y="${y + 13}">${row.value}</text></g>`;
  });
  return html`<figure><svg role="img" aria-labelledby="${slug(title)}" width="100%" viewBox="0 0 ${labelWidth + barWidth + 80} ${height}" preserveAspectRatio="xMinYMin meet"><title id="${slug(title)}">${title}: ${rows.map((row) => `${row.label} ${row.value}`).join(', ')}</title>${bars}</svg><figcaption>${title}</figcaption></figure>`;
}

function slug(text: string): string {
  return `chart-${text.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}
