// A few helpers for server-rendered pages: escaping by construction (every interpolated value is
// escaped unless it is already Html), one layout with a skip link, landmarks and a nav.
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
}

const STYLE = `
:root{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff;line-height:1.5}
body{margin:0}a{color:#0645ad}a:focus,button:focus,input:focus,select:focus{outline:3px solid #1d4ed8;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
header{background:#12263f;color:#fff;padding:.75rem 1.5rem;display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
header a{color:#fff}header nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:1rem;margin:0;padding:0}
header nav a[aria-current=page]{font-weight:700;text-decoration:underline}
.brand{font-weight:700;font-size:1.1rem;margin-right:1rem}
main{max-width:62rem;margin:0 auto;padding:1.5rem}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border-bottom:1px solid #ccc;padding:.35rem .5rem;text-align:left;font-size:.95rem}
th{background:#f1f3f5}td.num,th.num{text-align:right}
form.inline{display:inline}label{display:block;font-weight:600;margin-top:.75rem}
input,select{font-size:1rem;padding:.4rem;border:1px solid #555;border-radius:4px;max-width:100%}
button{font-size:1rem;padding:.45rem .9rem;border-radius:4px;border:1px solid #12263f;background:#12263f;color:#fff;cursor:pointer;margin-top:.5rem}
button.secondary{background:#fff;color:#12263f}button.danger{background:#a4161a;border-color:#a4161a}
.notice{border-left:4px solid #1d4ed8;background:#eef4ff;padding:.75rem 1rem;margin:1rem 0}
.error{border-left:4px solid #a4161a;background:#fdecec;padding:.75rem 1rem;margin:1rem 0}
.key{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:1rem;background:#f1f3f5;padding:.5rem;word-break:break-all;display:block}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem}
.card{border:1px solid #ccc;border-radius:6px;padding:1rem}
footer{max-width:62rem;margin:2rem auto;padding:0 1.5rem;color:#444;font-size:.9rem}
svg text{font-size:11px;fill:#1a1a1a}.charts figure{max-width:44rem;margin:1rem 0}
`;

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
  if (options.operator) links.push(['/ui/admin', 'Admin']);
  if (!options.signedIn) links.push(['/ui/login', 'Sign in'], ['/ui/signup', 'Sign up']);
  return links;
}

export function page(options: PageOptions, body: Html): Html {
  const nav = navLinks(options).map(
    ([href, label]) =>
      html`<li><a href="${href}"${href === options.current ? new Html(' aria-current="page"') : ''}>${label}</a></li>`,
  );
  const signOut =
    options.signedIn && options.csrf
      ? html`<form class="inline" method="post" action="/ui/logout"><input type="hidden" name="_csrf" value="${options.csrf}"><button class="secondary" type="submit">Sign out</button></form>`
      : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · dcledger</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header>
<span class="brand">dcledger</span>
<nav aria-label="Main"><ul>${nav}</ul></nav>
${signOut}
</header>
<main id="content">
<h1>${options.title}</h1>
${body}
</main>
<footer><p>dcledger: US congressional and executive-branch stock-trade disclosures as a metered API.</p></footer>
</body>
</html>`;
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
